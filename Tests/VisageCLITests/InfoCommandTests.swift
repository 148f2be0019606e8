import Foundation
import Testing

@Suite struct InfoCommandTests {
    @Test func describesASample() throws {
        let result = try CLIRunner.run(["info", "Samples/astronaut.png"])
        #expect(result.status == 0)
        #expect(result.stdout == "Samples/astronaut.png: PNG 512×512, RGB 8-bit → rgb8, orientation up (1)\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func jsonLinesForAFolder() throws {
        let result = try CLIRunner.run(["info", "--json", "Samples"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.map { $0?["image"] as? String } == [
            "Samples/astronaut.png", "Samples/camera.png", "Samples/coins.png", "Samples/horse.png",
        ])
        let coins = try #require(objects[2])
        #expect(coins["width"] as? Int == 384 && coins["height"] as? Int == 303)
        #expect(coins["pixelFormat"] as? String == "gray8" && coins["orientation"] as? Int == 1)
    }

    @Test func badFilesAreReportedAndTheRestProcessed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("empty.jpg"))
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("text.png"))
        let sample = CLIRunner.packageRoot.appendingPathComponent("Samples/horse.png").path

        let result = try CLIRunner.run(["info", "empty.jpg", "missing.png", sample, "text.png"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("\(sample): PNG 400×328"))
        let errors = result.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 4)
        #expect(errors[0].hasPrefix("visage: empty.jpg: "))
        #expect(errors[1].hasPrefix("visage: missing.png: "))
        #expect(errors[2].hasPrefix("visage: text.png: "))
        #expect(errors[3] == "visage: 3 of 4 files failed")
    }

    @Test func usageErrorsExitTwo() throws {
        let noArguments = try CLIRunner.run(["info"])
        #expect(noArguments.status == 2)
        #expect(noArguments.stderr.contains("Missing expected argument"))
        let unknownOption = try CLIRunner.run(["info", "--frobnicate", "x.png"])
        #expect(unknownOption.status == 2)
        let help = try CLIRunner.run(["info", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: visage info"))
    }
}
