/// Bounds-checked integer reads from untrusted bytes: every read past the end is a `truncated` error.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    let format: ImageFileFormat
    let littleEndian: Bool

    init(_ bytes: UnsafeRawBufferPointer, format: ImageFileFormat, littleEndian: Bool) {
        self.bytes = bytes
        self.format = format
        self.littleEndian = littleEndian
    }

    func u8(at offset: Int) throws(ImageError) -> Int {
        try check(offset, 1)
        return Int(bytes[offset])
    }

    func u16(at offset: Int) throws(ImageError) -> Int {
        try check(offset, 2)
        let (a, b) = (Int(bytes[offset]), Int(bytes[offset + 1]))
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u24(at offset: Int) throws(ImageError) -> Int {
        try check(offset, 3)
        let (a, b, c) = (Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]))
        return littleEndian ? a | b << 8 | c << 16 : a << 16 | b << 8 | c
    }

    func u32(at offset: Int) throws(ImageError) -> Int {
        try check(offset, 4)
        let (a, b, c, d) = (Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]), Int(bytes[offset + 3]))
        return littleEndian ? a | b << 8 | c << 16 | d << 24 : a << 24 | b << 16 | c << 8 | d
    }

    func i32(at offset: Int) throws(ImageError) -> Int { Int(Int32(truncatingIfNeeded: try u32(at: offset))) }

    func u64(at offset: Int) throws(ImageError) -> UInt64 {
        let (high, low) = littleEndian ? (try u32(at: offset + 4), try u32(at: offset)) : (try u32(at: offset), try u32(at: offset + 4))
        return UInt64(high) << 32 | UInt64(low)
    }

    func check(_ offset: Int, _ count: Int) throws(ImageError) {
        guard offset >= 0, count <= bytes.count, offset <= bytes.count - count else {
            throw .truncated(format, reason: "a \(count)-byte field at byte \(offset) runs past the end (\(bytes.count) bytes)")
        }
    }
}
