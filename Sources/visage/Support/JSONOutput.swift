import Foundation

/// Writes one JSON object per line (JSON Lines), keys sorted so output is stable.
enum JSONOutput {
    static func line(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
