import Foundation

/// The CLI's and the service's JSON: the bytes `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`
/// and its default strategies, in a fraction of its time.
///
/// `JSONEncoder` builds a tree of dictionaries, casts every value against its special types and sorts
/// through generic code: about 70 µs for one face's record, 2 % of a 640×480 image's CPU in the CLI and
/// a quarter of the service's own work per request (perf, session 19). This encoder builds a smaller tree
/// (keys and values in arrays, the common scalar types recognised by their metadata) and writes it in
/// one pass. Anything it does not write exactly as `JSONEncoder` would (`Date`, `Data`, `URL`,
/// `Decimal`, floats that are not finite, super encoders, nested containers, a key encoded twice, a value
/// that encodes nothing, a container asked for twice in two kinds) makes it hand the whole value to
/// `JSONEncoder` instead, which then writes it or throws as always. So the output is `JSONEncoder`'s in
/// every case, and `SortedJSONTests` compare the two on every record type.
package enum SortedJSON {
    /// `value` as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` encodes it.
    package static func encode<T: Encodable>(_ value: T) throws -> Data {
        if let bytes = try? fastBytes(value) { return data(bytes) }
        return try reference.encode(value)
    }

    /// ``encode(_:)``'s bytes and a newline (a JSON Lines record), made in one buffer.
    package static func line<T: Encodable>(_ value: T) throws -> Data {
        if let bytes = try? fastBytes(value, newline: true) { return data(bytes) }
        var data = try reference.encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The bytes as `Data`, copied once: `Data`'s generic initialiser casts the array at run time first.
    private static func data(_ bytes: [UInt8]) -> Data {
        bytes.withUnsafeBytes { $0.isEmpty ? Data() : Data(bytes: $0.baseAddress!, count: $0.count) }
    }

    /// The encoder whose bytes these are, and which writes what the fast path leaves.
    package static var reference: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The fast path alone: throws ``Unsupported`` where it would differ from `JSONEncoder` (tests use it
    /// to check that the cases they cover are written here, not by the fallback).
    /// With `newline`, a newline follows.
    package static func fastBytes<T: Encodable>(_ value: T, newline: Bool = false) throws -> [UInt8] {
        var writer = Writer()
        writer.bytes.reserveCapacity(1024)
        // An image's record, nearly every answer, is written straight, without a tree around it.
        if try !writer.writeRecord(value) {
            let state = EncodingState()
            let node = try TreeEncoder.node(of: value, parent: nil, key: nil, state: state)
            guard !state.unsupported else { throw Unsupported() }
            try writer.write(node)
        }
        if newline { writer.bytes.append(UInt8(ascii: "\n")) }
        return writer.bytes
    }

    /// A value the fast path does not write as `JSONEncoder` would.
    package struct Unsupported: Error {}
}

private final class EncodingState {
    /// Set by a use the fast path does not follow where no error can be thrown (containers asked for).
    var unsupported = false
}

private final class ObjectNode {
    var keys: [String] = []
    var values: [Node] = []
}

private final class ArrayNode {
    var values: [Node] = []
}

private enum Node {
    /// JSON written already: a ``FacesRecord`` or a ``FaceRecord``, written member by member.
    case raw([UInt8])
    /// A number's text.
    case number(String)
    case string(String)
    case bool(Bool)
    case null
    case object(ObjectNode)
    case array(ArrayNode)
}

private struct TreeKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { (stringValue, self.intValue) = ("Index \(intValue)", intValue) }
}

/// One value's encoder; its coding path is read through its parents, only when asked for.
private final class TreeEncoder: Encoder {
    let parent: TreeEncoder?
    let key: (any CodingKey)?
    let state: EncodingState
    var node: Node?

    init(parent: TreeEncoder?, key: (any CodingKey)?, state: EncodingState) {
        (self.parent, self.key, self.state) = (parent, key, state)
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: TreeEncoder? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: ObjectNode
        switch node {
        case nil:
            object = ObjectNode()
            node = .object(object)
        case .object(let existing)?:
            object = existing
        default:
            state.unsupported = true
            object = ObjectNode()
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: ArrayNode
        switch node {
        case nil:
            array = ArrayNode()
            node = .array(array)
        case .array(let existing)?:
            array = existing
        default:
            state.unsupported = true
            array = ArrayNode()
        }
        return UnkeyedContainer(encoder: self, array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

    /// `value`'s node: the scalar types `JSONEncoder` writes by their description directly, the types it
    /// treats apart refused, anything else through its own `encode(to:)`.
    static func node<T: Encodable>(of value: T, parent: TreeEncoder?, key: (any CodingKey)?, state: EncodingState) throws -> Node {
        if let scalar = try scalarNode(value) { return scalar }
        var record = Writer()
        if try record.writeRecord(value) { return .raw(record.bytes) }
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self { throw SortedJSON.Unsupported() }
        let encoder = TreeEncoder(parent: parent, key: key, state: state)
        try value.encode(to: encoder)
        guard let node = encoder.node else { throw SortedJSON.Unsupported() }
        return node
    }

    @inline(__always)
    static func scalarNode<T>(_ value: T) throws -> Node? {
        if T.self == String.self { return .string(value as! String) }
        if T.self == Double.self { return try number(value as! Double) }
        if T.self == Float.self { return try number(value as! Float) }
        if T.self == Int.self { return .number(String(value as! Int)) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == Int32.self { return .number(String(value as! Int32)) }
        if T.self == Int64.self { return .number(String(value as! Int64)) }
        if T.self == UInt.self { return .number(String(value as! UInt)) }
        if T.self == UInt8.self { return .number(String(value as! UInt8)) }
        if T.self == UInt16.self { return .number(String(value as! UInt16)) }
        if T.self == UInt32.self { return .number(String(value as! UInt32)) }
        if T.self == UInt64.self { return .number(String(value as! UInt64)) }
        if T.self == Int8.self { return .number(String(value as! Int8)) }
        if T.self == Int16.self { return .number(String(value as! Int16)) }
        return nil
    }

    /// As `JSONEncoder`: the description without a trailing ".0"; not finite is left to it (it throws).
    static func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws -> Node {
        guard value.isFinite else { throw SortedJSON.Unsupported() }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    let object: ObjectNode
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func add(_ node: Node, _ key: Key) {
        object.keys.append(key.stringValue)
        object.values.append(node)
    }

    mutating func encodeNil(forKey key: Key) throws { add(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { add(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { add(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { add(try TreeEncoder.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { add(try TreeEncoder.number(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(.number(String(value)), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        add(try TreeEncoder.node(of: value, parent: encoder, key: key, state: encoder.state), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder.state.unsupported = true
        return TreeEncoder(parent: encoder, key: key, state: encoder.state).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.state.unsupported = true
        return TreeEncoder(parent: encoder, key: key, state: encoder.state).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.state.unsupported = true
        return TreeEncoder(parent: encoder, key: nil, state: encoder.state)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.state.unsupported = true
        return TreeEncoder(parent: encoder, key: key, state: encoder.state)
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let array: ArrayNode
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.values.count }

    mutating func encodeNil() throws { array.values.append(.null) }
    mutating func encode(_ value: Bool) throws { array.values.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.values.append(try TreeEncoder.number(value)) }
    mutating func encode(_ value: Float) throws { array.values.append(try TreeEncoder.number(value)) }
    mutating func encode(_ value: Int) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { array.values.append(.number(String(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = TreeKey(intValue: array.values.count)
        array.values.append(try TreeEncoder.node(of: value, parent: encoder, key: key, state: encoder.state))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        encoder.state.unsupported = true
        return TreeEncoder(parent: encoder, key: TreeKey(intValue: count), state: encoder.state).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        encoder.state.unsupported = true
        return TreeEncoder(parent: encoder, key: TreeKey(intValue: count), state: encoder.state).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.state.unsupported = true
        return TreeEncoder(parent: encoder, key: TreeKey(intValue: count), state: encoder.state)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    /// A second value through one encoder is a precondition failure in `JSONEncoder`: left to it.
    private func set(_ node: Node) throws {
        guard encoder.node == nil else { throw SortedJSON.Unsupported() }
        encoder.node = node
    }

    mutating func encodeNil() throws { try set(.null) }
    mutating func encode(_ value: Bool) throws { try set(.bool(value)) }
    mutating func encode(_ value: String) throws { try set(.string(value)) }
    mutating func encode(_ value: Double) throws { try set(try TreeEncoder.number(value)) }
    mutating func encode(_ value: Float) throws { try set(try TreeEncoder.number(value)) }
    mutating func encode(_ value: Int) throws { try set(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { try set(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { try set(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { try set(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { try set(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { try set(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { try set(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { try set(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { try set(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { try set(.number(String(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard encoder.node == nil else { throw SortedJSON.Unsupported() }
        // The value's own encoding goes through this encoder (its path), as in JSONEncoder.
        if let scalar = try TreeEncoder.scalarNode(value) { return try set(scalar) }
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self { throw SortedJSON.Unsupported() }
        try value.encode(to: encoder)
        guard encoder.node != nil else { throw SortedJSON.Unsupported() }
    }
}

/// Writes a tree as `JSONEncoder`'s writer does without pretty printing: keys sorted by their UTF-8
/// bytes, strings escaped as it escapes them (quote, backslash, the C escapes, other controls as
/// `\u00xx`; slashes, DEL and non-ASCII as they are).
private struct Writer {
    var bytes: [UInt8] = []

    /// Writes `value` member by member when it is a record written here (``FacesRecord``, ``FaceRecord``)
    /// and returns true; returns false, writing nothing, for any other type.
    mutating func writeRecord<T>(_ value: T) throws -> Bool {
        if T.self == FacesRecord.self {
            try write(value as! FacesRecord)
        } else if T.self == FaceRecord.self {
            try write(value as! FaceRecord)
        } else {
            return false
        }
        return true
    }

    mutating func write(_ node: Node, depth: Int = 0) throws {
        // JSONEncoder refuses nesting of 512 containers or more: left to it.
        guard depth < 500 else { throw SortedJSON.Unsupported() }
        switch node {
        case .raw(let written):
            bytes.append(contentsOf: written)
        case .number(let text):
            append(text)
        case .string(let text):
            writeString(text)
        case .bool(let flag):
            append(flag ? "true" : "false")
        case .null:
            append("null")
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in array.values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(value, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            let keys = object.keys
            // Insertion sort of the indices: objects here hold a handful of keys.
            var order = Array(keys.indices)
            for i in order.indices.dropFirst() {
                let moving = order[i]
                var j = i
                while j > 0, keys[moving].utf8.lexicographicallyPrecedes(keys[order[j - 1]].utf8) {
                    order[j] = order[j - 1]
                    j -= 1
                }
                order[j] = moving
            }
            bytes.append(UInt8(ascii: "{"))
            for (position, index) in order.enumerated() {
                if position > 0 {
                    // A key encoded twice keeps its last value in JSONEncoder: left to it.
                    guard keys[index] != keys[order[position - 1]] else { throw SortedJSON.Unsupported() }
                    bytes.append(UInt8(ascii: ","))
                }
                writeString(keys[index])
                bytes.append(UInt8(ascii: ":"))
                try write(object.values[index], depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// An image's record written member by member, as its synthesized `Encodable` conformance and
    /// `JSONEncoder` would write it: keys in UTF-8 order, absent optionals left out. It is nearly every
    /// answer, and going through `Encodable` cost several times as much as writing it (perf, session 19).
    /// `SortedJSONTests` compare it with `JSONEncoder` with every member present and absent, and count
    /// the members, so a member added to these records fails them until it is written here.
    mutating func write(_ record: FacesRecord) throws {
        raw(#"{"faces":["#)
        for (index, face) in record.faces.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try write(face)
        }
        raw(#"],"height":"#)
        append(String(record.height))
        raw(#","image":"#)
        writeString(record.image)
        if let timings = record.timings {
            raw(#","timings":["#)
            for (index, timing) in timings.enumerated() {
                raw(index > 0 ? #",{"milliseconds":"# : #"{"milliseconds":"#)
                try number(timing.milliseconds)
                raw(#","stage":"#)
                writeString(timing.stage)
                bytes.append(UInt8(ascii: "}"))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        raw(#","width":"#)
        append(String(record.width))
        bytes.append(UInt8(ascii: "}"))
    }

    /// One face's record, written as the image's is.
    mutating func write(_ face: FaceRecord) throws {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        func key(_ name: StaticString) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            bytes.append(UInt8(ascii: "\""))
            bytes.append(UInt8(ascii: ":"))
        }
        if let blendshapes = face.blendshapes { key("blendshapes"); try writeObject(blendshapes) { try $0.number($1) } }
        key("boundingBox"); try write(face.boundingBox)
        if let quality = face.captureQuality { key("captureQuality"); try number(quality) }
        key("confidence"); try number(face.confidence)
        if let contours = face.contours { key("contours"); try writeObject(contours) { try $0.write($1) } }
        key("frame"); try write(face.frame)
        key("keypoints"); try writeObject(face.keypoints) { try $0.write($1) }
        if let landmarks = face.landmarks { key("landmarks"); try writeObject(landmarks) { try $0.write($1) } }
        if let open = face.leftEyeOpenProbability { key("leftEyeOpenProbability"); try number(open) }
        if let mesh = face.mesh {
            key("mesh")
            bytes.append(UInt8(ascii: "["))
            for (index, point) in mesh.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                raw(#"{"x":"#)
                try number(point.x)
                raw(#","y":"#)
                try number(point.y)
                raw(#","z":"#)
                try number(point.z)
                bytes.append(UInt8(ascii: "}"))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        if let landmarks = face.mlkitLandmarks { key("mlkitLandmarks"); try writeObject(landmarks) { try $0.write($1) } }
        key("pitch"); try number(face.pitch)
        if let open = face.rightEyeOpenProbability { key("rightEyeOpenProbability"); try number(open) }
        key("roll"); try number(face.roll)
        if let smiling = face.smilingProbability { key("smilingProbability"); try number(smiling) }
        key("yaw"); try number(face.yaw)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func write(_ rect: FaceRecord.Rect) throws {
        raw(#"{"height":"#)
        try number(rect.height)
        raw(#","width":"#)
        try number(rect.width)
        raw(#","x":"#)
        try number(rect.x)
        raw(#","y":"#)
        try number(rect.y)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func write(_ point: FaceRecord.Point) throws {
        raw(#"{"x":"#)
        try number(point.x)
        raw(#","y":"#)
        try number(point.y)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func write(_ points: [FaceRecord.Point]) throws {
        bytes.append(UInt8(ascii: "["))
        for (index, point) in points.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try write(point)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A `[String: V]` as JSONEncoder writes it with sorted keys.
    private mutating func writeObject<V>(_ object: [String: V], _ value: (inout Writer, V) throws -> Void) throws {
        let keys = object.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            writeString(key)
            bytes.append(UInt8(ascii: ":"))
            try value(&self, object[key]!)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// As `JSONEncoder`: the description without a trailing ".0"; not finite is left to it (it throws).
    private mutating func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws {
        guard value.isFinite else { throw SortedJSON.Unsupported() }
        var text = value.description
        text.withUTF8 { utf8 in
            // hasSuffix(".0") on the description, which is ASCII.
            let dropped = utf8.count >= 2 && utf8[utf8.count - 2] == UInt8(ascii: ".") && utf8[utf8.count - 1] == UInt8(ascii: "0")
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<(utf8.count - (dropped ? 2 : 0))]))
        }
    }

    private mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var mark = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
                mark = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 15)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
