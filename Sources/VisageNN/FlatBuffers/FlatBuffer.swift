/// Bounds-checked access to the bytes of a FlatBuffer.
///
/// FlatBuffers are read in place through offsets stored in the data itself, so every offset,
/// length and count read from the file is untrusted. Each accessor here checks the range it
/// touches against the buffer and throws ``ModelError/modelInvalid(reason:)`` instead of reading
/// outside it. All integers are little-endian and may be unaligned.
struct FlatBuffer {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var count: Int { bytes.count }

    /// Throws unless `[position, position + length)` lies inside the buffer.
    func check(_ position: Int, length: Int, _ what: @autoclosure () -> String) throws(ModelError) {
        guard position >= 0, length >= 0, position <= bytes.count, length <= bytes.count - position else {
            throw .modelInvalid(
                reason: "\(what()) at byte \(position) (\(length) bytes) lies outside the \(bytes.count)-byte file")
        }
    }

    func uint8(at position: Int) throws(ModelError) -> UInt8 {
        try check(position, length: 1, "a byte")
        return bytes[position]
    }

    func uint16(at position: Int) throws(ModelError) -> UInt16 {
        try check(position, length: 2, "a 16-bit value")
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    func uint32(at position: Int) throws(ModelError) -> UInt32 {
        try check(position, length: 4, "a 32-bit value")
        return UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8
            | UInt32(bytes[position + 2]) << 16 | UInt32(bytes[position + 3]) << 24
    }

    func int32(at position: Int) throws(ModelError) -> Int32 {
        Int32(bitPattern: try uint32(at: position))
    }

    func uint64(at position: Int) throws(ModelError) -> UInt64 {
        UInt64(try uint32(at: position)) | UInt64(try uint32(at: position + 4)) << 32
    }

    /// Follows the unsigned 32-bit offset stored at `position` (offsets are relative to where they are stored).
    func follow(at position: Int, _ what: @autoclosure () -> String) throws(ModelError) -> Int {
        let target = position + Int(try uint32(at: position))
        try check(target, length: 4, what())
        return target
    }

    /// The root table, whose offset is the buffer's first four bytes.
    func root() throws(ModelError) -> FlatTable {
        guard bytes.count >= 8 else {
            throw .modelInvalid(reason: "the file is \(bytes.count) bytes, too short for a FlatBuffer")
        }
        return try FlatTable(self, at: try follow(at: 0, "the root table"), "the root table")
    }
}
