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

    /// The prose of every help reads as paragraphs: no line of it stops short mid-sentence (a line break
    /// in the source's discussion, which ArgumentParser keeps, as in "… directly inside them. Files with"
    /// over "several frames …").
    @Test(arguments: ["info", "detect", "contours", "track", "serve", "run-model", "benchmark", "kernel-benchmark"])
    func proseIsNotCutMidSentence(command: String) throws {
        let help = try CLIRunner.run([command, "--help"])
        #expect(help.status == 0)
        let lines = help.stdout.components(separatedBy: "\n")
        for (line, next) in zip(lines, lines.dropFirst()) {
            // Indented lines are examples and options; a short line is fine where a sentence ends.
            guard !line.hasPrefix(" "), !line.isEmpty, line.count < 60, let first = next.first else { continue }
            #expect(!first.isLowercase, "visage \(command) --help breaks a sentence after \"\(line)\"")
        }
    }
}
