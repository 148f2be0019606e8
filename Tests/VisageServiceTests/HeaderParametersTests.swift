import Foundation
import Testing
import VisageService

/// Header values are trimmed without Foundation (``trimmingWhitespace(_:)``), which must trim exactly
/// what `trimmingCharacters(in: .whitespaces)` trims: tab, Unicode's space separators and U+200B, nothing else.
@Suite struct HeaderParametersTests {
    @Test func trimmingWhitespaceIsFoundationsTrimmingOfWhitespaces() {
        // Every scalar below U+3100 (every space separator is among them but U+3000, added), on either side.
        var scalars = (0..<0x3100).compactMap { Unicode.Scalar(UInt32($0)) }
        scalars += ["\u{3000}", "\u{FEFF}", "\u{1F600}", "\u{E0020}"]
        for scalar in scalars {
            let pad = String(scalar)
            for text in [pad, pad + pad, pad + "image/jpeg" + pad, " \t" + pad + "a b" + pad + "\t ", pad + " x", "x" + pad + "\u{A0}"] {
                let substring = Substring(text)
                #expect(trimmingWhitespace(substring) == substring.trimmingCharacters(in: .whitespaces), "U+\(String(scalar.value, radix: 16))")
            }
        }
        #expect(trimmingWhitespace("\u{A0}\u{2003}\t multipart/form-data \u{3000}") == "multipart/form-data")
        #expect(trimmingWhitespace("\n image/png \r") == "\n image/png \r")
    }
}
