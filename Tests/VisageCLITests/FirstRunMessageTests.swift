import Foundation
import Testing

/// The messages a newcomer meets on a first run (issue 19, item 6), word for word.
@Suite struct FirstRunMessageTests {
    /// Help is wrapped to the terminal; compare with runs of white space made single spaces.
    private func flattened(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    @Test func helpCountsTheBlendshapesTheModelGives() throws {
        let help = try CLIRunner.run(["detect", "--help"])
        #expect(flattened(help.stdout).contains(
            "Add smiling and eye-open probabilities and the 51 blendshapes: ARKit's 52 but tongueOut, which MediaPipe's model lacks (JSON:"))
        #expect(!help.stdout.contains("52 blendshapes"))
    }

    @Test(arguments: [
        (["detect", "--min-face-size", "-0.1", "Samples/astronaut.png"],
         "Error: --min-face-size -0.1 is out of range: it must be a fraction of the image width in 0…1"),
        (["track", "Samples", "--debounce", "-1"], "Error: --debounce -1.0 must be in 0…3600 seconds"),
        (["contours", "Samples/coins.png", "--epsilon", "-0.5"], "Error: --epsilon -0.5 must be a finite number ≥ 0"),
    ])
    func negativeValuesAreOutOfRangeNotMissing(arguments: [String], message: String) throws {
        let result = try CLIRunner.run(arguments)
        #expect(result.status == 2)
        #expect(firstLine(result.stderr) == message, "\(result.stderr)")
    }

    @Test(arguments: [
        (Data("P6\n2 2\n255\n".utf8) + Data(repeating: 7, count: 12), "the stream does not start with 'YUV4MPEG2 '"),
        (Data(repeating: 200, count: 4000), "a header line is longer than 1024 bytes"),
    ])
    func rawFramesOnStandardInputAskForTheirSize(input: Data, reason: String) throws {
        let result = try CLIRunner.run(["track", "-"], input: input)
        #expect(result.status == 2)
        #expect(firstLine(result.stderr) == "Error: standard input is not a YUV4MPEG2 stream (\(reason)); "
            + "for raw RGB24 frames give their size with --size WIDTHxHEIGHT", "\(result.stderr)")
    }

    /// Like `detect` with an unreadable file, `track` goes on past unreadable frames and exits 1.
    @Test func trackExitsOneAfterSkippingFrames() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: CLIRunner.packageRoot.appendingPathComponent("Samples/astronaut.png"), to: folder.appendingPathComponent("a.png"))
        for name in ["b.png", "c.png"] { try Data("not a picture".utf8).write(to: folder.appendingPathComponent(name)) }
        let result = try CLIRunner.run(["track", folder.path, "--events-only"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("visage: 2 of 3 frames could not be read\n"), "\(result.stderr)")
    }

    @Test func oneFaceIsSingular() throws {
        let result = try CLIRunner.run(["detect", "--benchmark", "1", "Samples/astronaut.png"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Samples/astronaut.png: 1 face; detect "), "\(result.stdout)")
    }

    @Test func anUnknownKernelSetIsNamed() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["VISAGE_KERNELS"] = "avx9"
        let result = try CLIRunner.run(["info", "Samples/astronaut.png"], environment: environment)
        #expect(result.status == 0)
        let prefix = "warning: VISAGE_KERNELS=avx9 names no kernel set (portable, avx2_fma, avx512, neon); using "
        #expect(firstLine(result.stderr).hasPrefix(prefix), "\(result.stderr)")
        let chosen = firstLine(result.stderr).dropFirst(prefix.count)
        #expect(["portable", "avx2_fma", "avx512", "neon"].contains(String(chosen)), "\(chosen)")
    }
}
