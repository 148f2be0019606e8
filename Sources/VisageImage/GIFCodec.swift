/// GIF87a and GIF89a, decoded natively: the first frame onto the logical screen, with its transparency.
///
/// GIF is a block structure and an LZW code stream, small enough to check every byte in Swift. Later
/// frames are only walked (their sub-blocks skipped, never decoded) to count them for ``ImageFileInfo``.
/// The canvas outside the first frame is transparent when the frame has a transparent index, otherwise
/// the background colour; pixels the code stream leaves out stay as the canvas.
package enum GIFCodec {
    struct Frame {
        var left, top, width, height: Int
        var interlaced: Bool
        var palette: [UInt8]
        var transparentIndex: Int?
        /// Offset of the LZW minimum code size byte.
        var dataOffset: Int
    }

    struct Structure {
        var width: Int
        var height: Int
        var globalPalette: [UInt8]
        var background: Int
        var first: Frame
        var frameCount: Int
    }

    /// Reads the screen descriptor and the first frame's descriptor; with `countFrames`, walks the rest.
    static func structure(_ bytes: UnsafeRawBufferPointer, countFrames: Bool) throws(ImageError) -> Structure {
        let reader = ByteReader(bytes, format: .gif, littleEndian: true)
        let width = try reader.u16(at: 6)
        let height = try reader.u16(at: 8)
        let packed = try reader.u8(at: 10)
        let background = try reader.u8(at: 11)
        guard width > 0, height > 0 else { throw .corrupt(.gif, reason: "logical screen \(width)×\(height) must be positive") }
        var offset = 13
        var globalPalette: [UInt8] = []
        if packed & 0x80 != 0 {
            let size = 3 << ((packed & 7) + 1)
            try reader.check(offset, size)
            globalPalette = Array(bytes[offset..<(offset + size)])
            offset += size
        }
        var first: Frame?
        var frameCount = 0
        var transparentIndex: Int?
        while offset < bytes.count {
            let introducer = bytes[offset]
            offset += 1
            switch introducer {
            case 0x21:
                let label = try reader.u8(at: offset)
                offset += 1
                if label == 0xF9, first == nil, try reader.u8(at: offset) >= 4 {
                    let flags = try reader.u8(at: offset + 1)
                    transparentIndex = flags & 1 != 0 ? try reader.u8(at: offset + 4) : nil
                }
                offset = try skipSubBlocks(reader, from: offset)
            case 0x2C:
                let left = try reader.u16(at: offset)
                let top = try reader.u16(at: offset + 2)
                let frameWidth = try reader.u16(at: offset + 4)
                let frameHeight = try reader.u16(at: offset + 6)
                let flags = try reader.u8(at: offset + 8)
                offset += 9
                var palette: [UInt8] = []
                if flags & 0x80 != 0 {
                    let size = 3 << ((flags & 7) + 1)
                    try reader.check(offset, size)
                    palette = Array(bytes[offset..<(offset + size)])
                    offset += size
                }
                frameCount += 1
                if first == nil {
                    first = Frame(
                        left: left, top: top, width: frameWidth, height: frameHeight, interlaced: flags & 0x40 != 0,
                        palette: palette.isEmpty ? globalPalette : palette, transparentIndex: transparentIndex, dataOffset: offset)
                    if !countFrames { offset = bytes.count; break }
                }
                offset = try skipSubBlocks(reader, from: offset + 1)
            case 0x3B:
                offset = bytes.count
            default:
                // Data after the last frame that is not a block: what came before still stands.
                guard first != nil else {
                    throw .corrupt(.gif, reason: "block introducer 0x\(String(introducer, radix: 16)) at byte \(offset - 1) is not 0x21, 0x2C or 0x3B")
                }
                offset = bytes.count
            }
        }
        guard let first else { throw .truncated(.gif, reason: "the data ends before the first image") }
        guard !first.palette.isEmpty else { throw .corrupt(.gif, reason: "the first image has no colour table") }
        return Structure(width: width, height: height, globalPalette: globalPalette, background: background, first: first, frameCount: frameCount)
    }

    /// The offset after a chain of data sub-blocks (length-prefixed, ended by a zero length).
    private static func skipSubBlocks(_ reader: ByteReader, from start: Int) throws(ImageError) -> Int {
        var offset = start
        while true {
            let length = try reader.u8(at: offset)
            offset += 1
            if length == 0 { return offset }
            try reader.check(offset, length)
            offset += length
        }
    }

    package static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageFileInfo {
        let gif = try structure(bytes, countFrames: true)
        let depth = gif.first.palette.count / 3
        return ImageFileInfo(
            format: .gif, width: gif.width, height: gif.height, orientation: .up,
            pixelFormat: gif.first.transparentIndex == nil ? .rgb8 : .rgba8, bitDepth: Int.bitWidth - 1 - depth.leadingZeroBitCount,
            colorModel: "palette", isProgressive: gif.first.interlaced, frameCount: gif.frameCount)
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) -> Image {
        let gif = try structure(bytes, countFrames: false)
        try checkPixelLimit(width: gif.width, height: gif.height, limit: pixelLimit)
        let frame = gif.first
        // The frame's own size bounds the work: each LZW code can expand to 4 096 pixels, so a few bytes
        // could otherwise keep the loop below busy for billions of pixels outside the canvas.
        try checkPixelLimit(width: frame.width, height: frame.height, limit: pixelLimit)
        let hasAlpha = frame.transparentIndex != nil
        let channels = hasAlpha ? 4 : 3
        let palette = frame.palette
        return try Image(uninitializedWidth: gif.width, height: gif.height, pixelFormat: hasAlpha ? .rgba8 : .rgb8) { out throws(ImageError) in
            if hasAlpha {
                out.initializeMemory(as: UInt8.self, repeating: 0)
            } else {
                let background = gif.background * 3 + 2 < gif.globalPalette.count
                    ? Array(gif.globalPalette[(gif.background * 3)..<(gif.background * 3 + 3)]) : [0, 0, 0]
                for pixel in 0..<(gif.width * gif.height) {
                    for channel in 0..<3 { out[pixel * 3 + channel] = background[channel] }
                }
            }
            var row = 0, pass = 0, x = 0
            let passes: [(start: Int, step: Int)] = frame.interlaced ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
            var decoder = try LZWDecoder(bytes, offset: frame.dataOffset)
            let total = frame.width * frame.height
            var written = 0
            while written < total, let index = try decoder.next() {
                written += 1
                let canvasX = frame.left + x, canvasY = frame.top + row
                if canvasX < gif.width, canvasY < gif.height, 3 * index + 2 < palette.count {
                    // A transparent pixel keeps its palette colour with alpha 0, as Pillow converts it.
                    let at = (canvasY * gif.width + canvasX) * channels
                    out[at] = palette[3 * index]
                    out[at + 1] = palette[3 * index + 1]
                    out[at + 2] = palette[3 * index + 2]
                    if hasAlpha { out[at + 3] = index == frame.transparentIndex ? 0 : 255 }
                }
                x += 1
                if x == frame.width {
                    x = 0
                    row += passes[pass].step
                    while row >= frame.height, pass + 1 < passes.count {
                        pass += 1
                        row = passes[pass].start
                    }
                }
            }
        }
    }
}

/// GIF's variable-width LZW, codes packed least-significant bit first into data sub-blocks.
struct LZWDecoder {
    private let bytes: UnsafeRawBufferPointer
    private var offset: Int
    private var blockRemaining = 0
    private var finished = false
    private var bitBuffer: UInt32 = 0
    private var bitCount = 0

    private let minimumCodeSize: Int
    private var codeSize: Int
    private var nextCode: Int
    private var previous: Int?
    private var prefix = [UInt16](repeating: 0, count: 4096)
    private var suffix = [UInt8](repeating: 0, count: 4096)
    private var firstByte = [UInt8](repeating: 0, count: 4096)
    private var stack: [UInt8] = []

    init(_ bytes: UnsafeRawBufferPointer, offset: Int) throws(ImageError) {
        let size = try ByteReader(bytes, format: .gif, littleEndian: true).u8(at: offset)
        guard (1...8).contains(size) else { throw .corrupt(.gif, reason: "LZW minimum code size \(size) is outside 1…8") }
        self.bytes = bytes
        self.offset = offset + 1
        minimumCodeSize = size
        codeSize = size + 1
        nextCode = (1 << size) + 2
        for code in 0..<(1 << size) {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            firstByte[code] = UInt8(truncatingIfNeeded: code)
        }
        stack.reserveCapacity(4096)
    }

    /// The next palette index, nil at the end code or the end of the data sub-blocks.
    mutating func next() throws(ImageError) -> Int? {
        if let last = stack.popLast() { return Int(last) }
        let clear = 1 << minimumCodeSize
        while true {
            guard let code = try readCode() else { return nil }
            if code == clear {
                codeSize = minimumCodeSize + 1
                nextCode = clear + 2
                previous = nil
                continue
            }
            if code == clear + 1 { return nil }
            guard let previous else {
                guard code < clear else { throw .corrupt(.gif, reason: "LZW code \(code) before any entry exists") }
                self.previous = code
                return code
            }
            var current = code
            if code == nextCode {
                // The KwKwK case: the previous string plus its own first byte.
                stack.append(firstByte[previous])
                current = previous
            } else if code > nextCode {
                throw .corrupt(.gif, reason: "LZW code \(code) is past the table's \(nextCode) entries")
            }
            while current >= clear {
                stack.append(suffix[current])
                current = Int(prefix[current])
            }
            stack.append(UInt8(current))
            if nextCode < 4096 {
                prefix[nextCode] = UInt16(previous)
                suffix[nextCode] = UInt8(current)
                firstByte[nextCode] = firstByte[previous]
                nextCode += 1
                if nextCode == 1 << codeSize, codeSize < 12 { codeSize += 1 }
            }
            self.previous = code
            return Int(stack.removeLast())
        }
    }

    private mutating func readCode() throws(ImageError) -> Int? {
        while bitCount < codeSize {
            guard let byte = try readByte() else { return nil }
            bitBuffer |= UInt32(byte) << bitCount
            bitCount += 8
        }
        let code = Int(bitBuffer & ((1 << codeSize) - 1))
        bitBuffer >>= codeSize
        bitCount -= codeSize
        return code
    }

    private mutating func readByte() throws(ImageError) -> UInt8? {
        if finished { return nil }
        if blockRemaining == 0 {
            guard offset < bytes.count else { throw .truncated(.gif, reason: "the image data ends at byte \(offset) without its terminator") }
            blockRemaining = Int(bytes[offset])
            offset += 1
            if blockRemaining == 0 {
                finished = true
                return nil
            }
        }
        guard offset < bytes.count else { throw .truncated(.gif, reason: "the image data ends at byte \(offset) inside a sub-block") }
        blockRemaining -= 1
        offset += 1
        return bytes[offset - 1]
    }
}
