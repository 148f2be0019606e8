/// A FlatBuffers table: an inline block of fields described by a vtable.
///
/// The table starts with a signed offset to its vtable; the vtable lists, per field id, the
/// field's offset inside the table (0 when absent, in which case the schema default applies).
/// The vtable and every field read are checked against the buffer, and field offsets against
/// the table's declared inline size.
struct FlatTable {
    let buffer: FlatBuffer
    let position: Int
    /// What this table is, for error messages ("tensor 12").
    let name: String
    private let vtable: Int
    private let vtableSize: Int
    private let inlineSize: Int

    init(_ buffer: FlatBuffer, at position: Int, _ name: String) throws(ModelError) {
        self.buffer = buffer
        self.position = position
        self.name = name
        let vtable = position - Int(try buffer.int32(at: position))
        try buffer.check(vtable, length: 4, "the vtable of \(name)")
        let vtableSize = Int(try buffer.uint16(at: vtable))
        let inlineSize = Int(try buffer.uint16(at: vtable + 2))
        guard vtableSize >= 4, vtableSize % 2 == 0 else {
            throw .modelInvalid(reason: "the vtable of \(name) declares \(vtableSize) bytes; it needs an even count ≥ 4")
        }
        try buffer.check(vtable, length: vtableSize, "the vtable of \(name)")
        guard inlineSize >= 4 else {
            throw .modelInvalid(reason: "\(name) declares an inline size of \(inlineSize) bytes; it needs ≥ 4")
        }
        try buffer.check(position, length: inlineSize, name)
        self.vtable = vtable
        self.vtableSize = vtableSize
        self.inlineSize = inlineSize
    }

    /// Where field `id` is stored, or nil when the table leaves it out.
    private func field(_ id: Int, size: Int) throws(ModelError) -> Int? {
        let slot = 4 + 2 * id
        guard slot + 2 <= vtableSize else { return nil }
        let offset = Int(try buffer.uint16(at: vtable + slot))
        guard offset != 0 else { return nil }
        guard offset + size <= inlineSize else {
            throw .modelInvalid(
                reason: "field \(id) of \(name) at offset \(offset) overruns the table's \(inlineSize) bytes")
        }
        return position + offset
    }

    func uint8(_ id: Int, default value: UInt8 = 0) throws(ModelError) -> UInt8 {
        guard let at = try field(id, size: 1) else { return value }
        return try buffer.uint8(at: at)
    }

    func bool(_ id: Int, default value: Bool = false) throws(ModelError) -> Bool {
        guard let at = try field(id, size: 1) else { return value }
        return try buffer.uint8(at: at) != 0
    }

    func int32(_ id: Int, default value: Int32 = 0) throws(ModelError) -> Int32 {
        guard let at = try field(id, size: 4) else { return value }
        return try buffer.int32(at: at)
    }

    func uint32(_ id: Int, default value: UInt32 = 0) throws(ModelError) -> UInt32 {
        guard let at = try field(id, size: 4) else { return value }
        return try buffer.uint32(at: at)
    }

    func uint64(_ id: Int, default value: UInt64 = 0) throws(ModelError) -> UInt64 {
        guard let at = try field(id, size: 8) else { return value }
        return try buffer.uint64(at: at)
    }

    /// The sub-table in field `id`, or nil when absent.
    func table(_ id: Int, _ what: @autoclosure () -> String) throws(ModelError) -> FlatTable? {
        guard let at = try field(id, size: 4) else { return nil }
        let description = "\(what()) of \(name)"
        return try FlatTable(buffer, at: try buffer.follow(at: at, description), description)
    }

    /// The vector in field `id` with elements of `elementSize` bytes, or nil when absent.
    func vector(_ id: Int, elementSize: Int, _ what: @autoclosure () -> String) throws(ModelError) -> FlatVector? {
        guard let at = try field(id, size: 4) else { return nil }
        let description = "\(what()) of \(name)"
        return try FlatVector(buffer, at: try buffer.follow(at: at, description), elementSize: elementSize, description)
    }

    /// The string in field `id`, or nil when absent. Invalid UTF-8 is repaired, not rejected.
    func string(_ id: Int, _ what: @autoclosure () -> String) throws(ModelError) -> String? {
        guard let vector = try vector(id, elementSize: 1, what()) else { return nil }
        return String(decoding: buffer.bytes[vector.start ..< vector.start + vector.count], as: UTF8.self)
    }
}
