import Foundation
import Testing

@Suite struct TrackCommandTests {
    /// A folder of frames: the astronaut (512×512) for 4 frames, then 6 plain gray frames of the same
    /// size, without a face, at 10 fps.
    private func frameFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let astronaut = CLIRunner.packageRoot.appendingPathComponent("Samples/astronaut.png")
        let gray = Data("P6\n512 512\n255\n".utf8) + Data(repeating: 128, count: 512 * 512 * 3)
        for index in 0..<10 {
            let name = String(format: "frame%02d", index)
            if index < 4 {
                try FileManager.default.copyItem(at: astronaut, to: folder.appendingPathComponent(name + ".png"))
            } else {
                try gray.write(to: folder.appendingPathComponent(name + ".ppm"))
            }
        }
        return folder
    }

    @Test func presenceEventsFromAFolderOfFrames() throws {
        let folder = try frameFolder()
        let result = try CLIRunner.run([
            "track", folder.path, "--fps", "10", "--debounce", "0.2", "--json", "--events-only",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(events.map { $0["event"] as? String } == ["faceDetected", "noFaceDetected"])
        // Presence is reported once it has lasted the debounce: 0.2 s after frame 0 and after frame 4.
        let times = events.compactMap { $0["time"] as? Double }
        try #require(times.count == 2)
        #expect(abs(times[0] - 0.2) < 1e-9 && abs(times[1] - 0.6) < 1e-9, "\(times)")
    }

    @Test func frameLinesCarryTrackingIDs() throws {
        let folder = try frameFolder()
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
    }

    @Test func missingInputAndBadOptions() throws {
        let missing = try CLIRunner.run(["track", "no-such-folder"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no-such-folder"))
        let badThreshold = try CLIRunner.run(["track", "Samples", "--blink-threshold", "2"])
        #expect(badThreshold.status == 2)
    }
}
