/// A FlatBuffers vector: a 32-bit element count followed by the elements.
///
/// The whole extent (`count × elementSize` bytes) is checked against the buffer when the vector
/// is opened, so a forged count cannot make a loop run past the data (or for long: the count is
/// bounded by the file size).
struct FlatVector {
    let buffer: FlatBuffer
    /// Position of the first element.
    let start: Int
    let count: Int
    let elementSize: Int
    let name: String

    init(_ buffer: FlatBuffer, at position: Int, elementSize: Int, _ name: String) throws(ModelError) {
        let count = Int(try buffer.uint32(at: position))
        let (length, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow else {
            throw .modelInvalid(reason: "\(name) declares \(count) elements, more than the file can hold")
        }
        try buffer.check(position + 4, length: length, "\(name) (\(count) elements)")
        self.buffer = buffer
        self.start = position + 4
        self.count = count
        self.elementSize = elementSize
        self.name = name
    }

    func int32(_ index: Int) throws(ModelError) -> Int32 {
        try buffer.int32(at: start + index * 4)
    }

    func uint8(_ index: Int) throws(ModelError) -> UInt8 {
        try buffer.uint8(at: start + index)
    }

    /// Element `index` of a vector of tables.
    func table(_ index: Int, _ what: @autoclosure () -> String) throws(ModelError) -> FlatTable {
        let description = what()
        return try FlatTable(buffer, at: try buffer.follow(at: start + index * 4, description), description)
    }

    /// All elements of a vector of 32-bit integers.
    func int32s() throws(ModelError) -> [Int] {
        var values: [Int] = []
        values.reserveCapacity(count)
        for index in 0 ..< count {
            values.append(Int(try int32(index)))
        }
        return values
    }

    /// The bytes of a vector of bytes.
    var byteRange: Range<Int> { start ..< start + count * elementSize }
}
