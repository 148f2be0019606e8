import Foundation
import Testing

/// The examples `--help` shows with their output are what a newcomer runs first: each prints exactly what
/// its help says. Compared with whitespace collapsed, since ArgumentParser wraps the help to the terminal.
@Suite struct HelpExamplesTests {
    static func words(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test(arguments: [
        ["detect", "Samples/astronaut.png"],
        ["detect", "--classify", "--quality", "Samples/astronaut.png"],
        ["contours", "Samples/coins.png"],
        ["info", "Samples/astronaut.png"],
    ])
    func exampleOutputIsWhatTheCommandPrints(arguments: [String]) throws {
        let help = try CLIRunner.run([arguments[0], "--help"])
        #expect(help.status == 0)
        let run = try CLIRunner.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let example = Self.words("$ visage " + arguments.joined(separator: " ") + "\n" + run.stdout)
        #expect(Self.words(help.stdout).contains(example), "visage \(arguments.joined(separator: " ")) printed:\n\(run.stdout)")
    }
}
