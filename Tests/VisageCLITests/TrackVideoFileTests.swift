import Foundation
import Testing

/// Whether ffmpeg and ffprobe are on PATH, where `visage track` looks for them.
private let ffmpegInstalled = ["ffmpeg", "ffprobe"].allSatisfy { tool in
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
    }
}

/// `visage track` on video files read through ffmpeg: the wire (JSON Lines, exit status, stderr).
/// Needs ffmpeg at run time; skipped, with the reason, without it.
@Suite(.enabled(if: ffmpegInstalled, "ffmpeg and ffprobe are not on PATH (Debian: apt-get install ffmpeg)"))
struct TrackVideoFileTests {
    static let fixtures = CLIRunner.packageRoot.appendingPathComponent("Tests/VisageVideoTests/Fixtures")

    /// Every frame of the variable-rate clip once: `frame` is the source's index and `time` ffprobe's pts_time.
    @Test func variableRateClipFramesAndTimes() throws {
        struct Probe: Decodable {
            struct Frame: Decodable { var pts_time: String }
            var frames: [Frame]
        }
        let probe = try JSONDecoder().decode(Probe.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("vfr.ffprobe.json")))
        let result = try CLIRunner.run(["track", Self.fixtures.appendingPathComponent("vfr.mp4").path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }.filter { $0["event"] == nil }
        #expect(frames.compactMap { $0["frame"] as? Int } == Array(0..<probe.frames.count))
        let times = frames.compactMap { $0["time"] as? Double }
        try #require(times.count == probe.frames.count)
        for (time, reference) in zip(times, probe.frames.map { Double($0.pts_time)! }) {
            #expect(abs(time - reference) <= 0.001, "time \(time), ffprobe \(reference)")
        }
        #expect(result.stderr.contains("\(probe.frames.count) frames tracked"))
    }

    /// A binary without its models stops with the typed error, and does not wait for ffmpeg, which has
    /// already started and is blocked writing frames nobody reads.
    @Test(.timeLimit(.minutes(1))) func missingModelsEndTrackingAtOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = folder.appendingPathComponent("visage")
        try FileManager.default.copyItem(at: CLIRunner.executable, to: binary)
        let result = try CLIRunner.run(
            ["track", Self.fixtures.appendingPathComponent("vfr.mp4").path, "--json"], in: folder, program: binary,
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(".tflite was not found in \(folder.standardizedFileURL.path)/Visage_VisageModels.resources"), "\(result.stderr)")
    }

    @Test func fileWithoutVideoExitsOne() throws {
        let audio = Self.fixtures.appendingPathComponent("audio-only.m4a").path
        let result = try CLIRunner.run(["track", audio, "--json"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("'\(audio)' holds no video stream"), "\(result.stderr)")
    }
}
