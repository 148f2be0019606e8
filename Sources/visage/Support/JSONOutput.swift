import Foundation

/// Writes one JSON object per line (JSON Lines), keys sorted so output is stable.
enum JSONOutput {
    static func line(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        print(String(decoding: data, as: UTF8.self))  // LineOutput: one write per line
    }
}
