import Foundation

/// Writes one JSON object per line (JSON Lines), keys sorted so output is stable.
enum JSONOutput {
    /// One `write` per line, so a reader of a pipe gets each record as it is made (as ``print(_:separator:terminator:)``).
    static func line(_ value: some Encodable) throws {
        FileHandle.standardOutput.write(try encodedLine(value))
    }

    /// The object's JSON and a newline. A new encoder each time: this runs on several threads at once.
    static func encodedLine(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value) + Data("\n".utf8)
    }
}
