import Foundation
import Visage

/// Writes one JSON object per line (JSON Lines), keys sorted so output is stable.
enum JSONOutput {
    /// One `write` per line, so a reader of a pipe gets each record as it is made (as ``print(_:separator:terminator:)``).
    static func line(_ value: some Encodable) throws {
        FileHandle.standardOutput.write(try encodedLine(value))
    }

    /// The object's JSON and a newline: `JSONEncoder`'s bytes with sorted keys and slashes unescaped,
    /// written by ``SortedJSON`` (the service's encoding too).
    static func encodedLine(_ value: some Encodable) throws -> Data {
        try SortedJSON.line(value)
    }
}
