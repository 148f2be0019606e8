import Foundation
import Testing

@Suite struct TrackCommandTests {
    /// A folder of frames: the astronaut (512×512) for 4 frames, then 6 plain gray frames of the same
    /// size, without a face, at 10 fps. The caller removes it.
    private func frameFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let astronaut = CLIRunner.packageRoot.appendingPathComponent("Samples/astronaut.png")
        let gray = Data("P6\n512 512\n255\n".utf8) + Data(repeating: 128, count: 512 * 512 * 3)
        do {
            for index in 0..<10 {
                let name = String(format: "frame%02d", index)
                if index < 4 {
                    try FileManager.default.copyItem(at: astronaut, to: folder.appendingPathComponent(name + ".png"))
                } else {
                    try gray.write(to: folder.appendingPathComponent(name + ".ppm"))
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        return folder
    }

    /// Presence and attention on the wire: the astronaut looks into the camera, so with both debounces
    /// at 0.2 s she (face 1) and anyone gain attention with her presence, and lose it with her absence.
    @Test func presenceAndAttentionEventsFromAFolderOfFrames() throws {
        let folder = try frameFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLIRunner.run([
            "track", folder.path, "--fps", "10", "--debounce", "0.2", "--attention-duration", "0.2", "--json", "--events-only",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let names = events.map { event in (event["event"] as? String ?? "?") + ((event["trackingID"] as? Int).map { " \($0)" } ?? "") }
        #expect(names == [
            "faceDetected", "attentionGained", "attentionGained 1", "noFaceDetected", "attentionLost", "attentionLost 1",
        ])
        // Each is reported once it has lasted the debounce: 0.2 s after frame 0 and after frame 4.
        let times = events.compactMap { $0["time"] as? Double }
        try #require(times.count == 6)
        #expect(times[0 ..< 3].allSatisfy { abs($0 - 0.2) < 1e-9 } && times[3...].allSatisfy { abs($0 - 0.6) < 1e-9 }, "\(times)")
    }

    @Test func frameLinesCarryTrackingIDs() throws {
        let folder = try frameFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLIRunner.run(["track", folder.path, "--fps", "10", "--debounce", "0.2", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let frames = lines.filter { $0["frame"] != nil && $0["event"] == nil }
        try #require(frames.count == 10)
        let faces = frames.map { ($0["faces"] as? [[String: Any]]) ?? [] }
        // The face is reported from its confirmation (0.2 s, frame 2) as face 1, and its event line
        // comes right after that frame's line.
        #expect(faces.map(\.count) == [0, 0, 1, 1, 0, 0, 0, 0, 0, 0])
        #expect(faces.compactMap { $0.first?["trackingID"] as? Int } == [1, 1])
        #expect(lines[2]["frame"] as? Int == 2 && lines[3]["event"] as? String == "faceDetected")
        let blink = try #require(faces[2].first?["eyeBlinkLeft"] as? Double)
        #expect((0...1).contains(blink))
        // Each face line has its gaze and, with attention's default 0.5 s not yet reached, no attention.
        let record = try #require(faces[2].first?["gaze"] as? [String: Any])
        #expect(Set(record.keys) == ["yaw", "pitch", "angleFromCamera", "headAngleFromCamera", "lookingAtCamera", "leftEye", "rightEye"])
        let gaze = record.compactMapValues { $0 as? Double }
        #expect(gaze["angleFromCamera"]! < 15 && gaze["lookingAtCamera"]! > 0.5, "\(gaze)")
        // Each eye's angles in the head: the astronaut looks ahead, so both are small.
        for eye in ["leftEye", "rightEye"] {
            let angles = try #require(record[eye] as? [String: Double])
            #expect(Set(angles.keys) == ["yaw", "pitch"])
            #expect(abs(angles["yaw"]!) < 20 && abs(angles["pitch"]!) < 20, "\(eye): \(angles)")
        }
        #expect(faces[2].first?["attention"] as? Bool == false)
        // Each eye's openness, lid aperture in iris diameters: the astronaut's eyes are open.
        let openness = try #require(faces[2].first?["eyeOpenness"] as? [String: Double])
        #expect(Set(openness.keys) == ["left", "right"] && openness.values.allSatisfy { (0.5...1.5).contains($0) }, "\(openness)")
        // And its fitted head pose, the series nods and shakes come from: the astronaut faces the camera.
        let pose = ["roll", "yaw", "pitch"].compactMap { faces[2].first?[$0] as? Double }
        #expect(pose.count == 3 && pose.allSatisfy { abs($0) < 30 }, "\(pose)")
    }

    /// A y4m clip of plain gray frames (no face) at 10 fps, `seconds` long. The caller removes it.
    private func grayClip(seconds: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + ".y4m")
        let (width, height) = (64, 48)
        var data = Data("YUV4MPEG2 W\(width) H\(height) F10:1 Ip A1:1 C420jpeg\n".utf8)
        let frame = Data("FRAME\n".utf8) + Data(repeating: 118, count: width * height) + Data(repeating: 128, count: width * height / 2)
        for _ in 0..<(10 * seconds) { data += frame }
        try data.write(to: url)
        return url
    }

    /// Events reach a reader through a pipe as they happen: with `--realtime` a 12 s clip plays for 12 s,
    /// and its first event (noFaceDetected 0.3 s after the first frame the tracker takes, which in a debug
    /// build on a busy machine can be seconds in, once the models are loaded) must arrive well before the
    /// process ends. (Checking `isRunning` right after the line is not enough: a block-buffered line
    /// arrives as the process exits, before it is reaped.)
    @Test(arguments: [["--json"], []])
    func eventsAreLineBufferedOnAPipe(format: [String]) throws {
        let clip = try grayClip(seconds: 12)
        defer { try? FileManager.default.removeItem(at: clip) }
        let process = Process()
        process.executableURL = CLIRunner.executable
        process.arguments = ["track", clip.path, "--realtime", "--events-only", "--debounce", "0.3"] + format
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var received = Data()
        while !received.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        let lineArrived = ContinuousClock.now
        _ = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lead = ContinuousClock.now - lineArrived
        let line = String(decoding: received.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        #expect(lead > .seconds(1), "the first line arrived only \(lead) before the process ended: \(line)")
        #expect(line.contains("noFaceDetected"), "\(line)")
    }

    #if DEBUG
    /// A debug build says once, on stderr, why video is slow.
    @Test func debugBuildWarnsOnceAboutVideo() throws {
        let clip = try grayClip(seconds: 1)
        defer { try? FileManager.default.removeItem(at: clip) }
        let result = try CLIRunner.run(["track", clip.path, "--events-only"])
        #expect(result.status == 0, "\(result.stderr)")
        let warning = "warning: this is a debug build of visage, 20–40× slower than release for video; build with `swift run -c release visage …` (or `swift build -c release`)"
        #expect(result.stderr.components(separatedBy: warning).count == 2, "\(result.stderr)")
    }
    #endif

    @Test func missingInputAndBadOptions() throws {
        let missing = try CLIRunner.run(["track", "no-such-folder"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no-such-folder"))
        let badThreshold = try CLIRunner.run(["track", "Samples", "--blink-threshold", "2"])
        #expect(badThreshold.status == 2)
    }
}
