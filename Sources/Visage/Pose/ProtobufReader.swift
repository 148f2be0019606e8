/// A bounds-checked reader of the protocol-buffer wire format: just enough to walk the fields of the
/// face geometry metadata without a protobuf library.
///
/// Every read checks the remaining length, varints stop at 10 bytes, and nested messages are sub-ranges
/// of the same bytes, so malformed input ends in ``FaceGeometryError/malformedMetadata(reason:)``.
struct ProtobufReader {
    /// A field's payload, by wire type.
    enum Value {
        case varint(UInt64)
        case fixed64(UInt64)
        case bytes(ArraySlice<UInt8>)
        case fixed32(UInt32)
    }

    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var isAtEnd: Bool { position >= bytes.endIndex }

    /// The next field's number and payload, nil at the end of the message.
    mutating func next() throws(FaceGeometryError) -> (field: Int, value: Value)? {
        guard !isAtEnd else { return nil }
        let key = try varint()
        let field = Int(key >> 3)
        guard field > 0, field <= 536_870_911 else { throw .malformedMetadata(reason: "field number \(field) out of range") }
        switch key & 7 {
        case 0: return (field, .varint(try varint()))
        case 1: return (field, .fixed64(try fixed(8)))
        case 2:
            let length = try varint()
            guard length <= UInt64(bytes.endIndex - position) else {
                throw .malformedMetadata(reason: "field \(field) claims \(length) bytes; \(bytes.endIndex - position) remain")
            }
            let start = position
            position += Int(length)
            return (field, .bytes(bytes[start..<position]))
        case 5: return (field, .fixed32(UInt32(try fixed(4))))
        case let type: throw .malformedMetadata(reason: "field \(field) has unsupported wire type \(type)")
        }
    }

    private mutating func varint() throws(FaceGeometryError) -> UInt64 {
        var result: UInt64 = 0
        for shift in stride(from: 0, to: 70, by: 7) {
            guard position < bytes.endIndex else { throw .malformedMetadata(reason: "truncated varint") }
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7f) << UInt64(shift)
            if byte < 0x80 { return result }
        }
        throw .malformedMetadata(reason: "varint longer than 10 bytes")
    }

    private mutating func fixed(_ count: Int) throws(FaceGeometryError) -> UInt64 {
        guard bytes.endIndex - position >= count else { throw .malformedMetadata(reason: "truncated \(count)-byte value") }
        var result: UInt64 = 0
        for index in 0..<count { result |= UInt64(bytes[position + index]) << UInt64(8 * index) }
        position += count
        return result
    }
}

extension ProtobufReader.Value {
    /// Floats of a `repeated float` field: one when unpacked (fixed32), several when packed (bytes).
    func floats(field: Int) throws(FaceGeometryError) -> [Float] {
        switch self {
        case let .fixed32(bits): return [Float(bitPattern: bits)]
        case let .bytes(data):
            guard data.count % 4 == 0 else { throw .malformedMetadata(reason: "packed floats of field \(field) are \(data.count) bytes") }
            return stride(from: data.startIndex, to: data.endIndex, by: 4).map { i in
                Float(bitPattern: UInt32(data[i]) | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2]) << 16 | UInt32(data[i + 3]) << 24)
            }
        default: throw .malformedMetadata(reason: "field \(field) is not a float")
        }
    }
}
