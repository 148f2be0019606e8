/// Netpbm PGM and PPM, binary (P5, P6) and plain text (P2, P3), maxval 1…65535, decoded natively.
///
/// Samples are scaled to 8 bits as `(v × 255 + maxval / 2) / maxval`, exact for maxval 255.
package enum PNMCodec {
    package struct Header {
        var isColor: Bool
        var isPlain: Bool
        var width: Int
        var height: Int
        var maxval: Int
        /// Offset of the first sample.
        var dataOffset: Int

        var channels: Int { isColor ? 3 : 1 }

        var info: ImageFileInfo {
            ImageFileInfo(
                format: .pnm, width: width, height: height, orientation: .up,
                pixelFormat: isColor ? .rgb8 : .gray8, bitDepth: Int.bitWidth - maxval.leadingZeroBitCount,
                colorModel: isColor ? "RGB" : "gray", isProgressive: false)
        }
    }

    package static func header(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> Header {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P") else { throw .corrupt(.pnm, reason: "missing 'P' magic") }
        let kind = bytes[1]
        guard [UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "5"), UInt8(ascii: "6")].contains(kind) else {
            throw .corrupt(.pnm, reason: "magic P\(Character(UnicodeScalar(kind))) is not P2, P3, P5 or P6")
        }
        var scanner = Scanner(bytes: bytes, offset: 2)
        let width = try scanner.number(named: "width")
        let height = try scanner.number(named: "height")
        let maxval = try scanner.number(named: "maxval")
        guard width > 0, height > 0 else { throw .corrupt(.pnm, reason: "size \(width)×\(height) must be positive") }
        guard (1...65535).contains(maxval) else { throw .corrupt(.pnm, reason: "maxval \(maxval) is outside 1…65535") }
        // Exactly one whitespace byte separates the header from binary samples.
        guard scanner.offset < bytes.count, isSpace(bytes[scanner.offset]) else {
            throw .truncated(.pnm, reason: "the header ends without the whitespace before the samples")
        }
        let isColor = kind == UInt8(ascii: "3") || kind == UInt8(ascii: "6")
        let isPlain = kind == UInt8(ascii: "2") || kind == UInt8(ascii: "3")
        return Header(
            isColor: isColor, isPlain: isPlain, width: width, height: height, maxval: maxval,
            dataOffset: scanner.offset + 1)
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) -> Image {
        let header = try header(bytes)
        try checkPixelLimit(width: header.width, height: header.height, limit: pixelLimit)
        let wide = header.maxval > 255
        let available = bytes.count - header.dataOffset
        // Width × height fits (the pixel limit is checked); with a raised limit, the samples or their
        // bytes may still overflow an Int, which no data holds.
        let (count, countOverflow) = (header.width * header.height).multipliedReportingOverflow(by: header.channels)
        let (needed, neededOverflow) = count.multipliedReportingOverflow(by: wide ? 2 : 1)
        guard !countOverflow, header.isPlain || (!neededOverflow && available >= needed) else {
            let claim = countOverflow || neededOverflow ? "more than \(Int.max)" : "\(needed)"
            throw .truncated(.pnm, reason: "\(available) bytes of samples, \(claim) needed for \(header.width)×\(header.height)")
        }
        let maxval = header.maxval
        return try Image(
            uninitializedWidth: header.width, height: header.height, pixelFormat: header.isColor ? .rgb8 : .gray8
        ) { out throws(ImageError) in
            let scaled = { (value: Int) -> UInt8 in maxval == 255 ? UInt8(value) : UInt8((value * 255 + maxval / 2) / maxval) }
            if header.isPlain {
                var scanner = Scanner(bytes: bytes, offset: header.dataOffset)
                for index in 0..<count {
                    let value = try scanner.number(named: "sample", truncatedReason: "only \(index) of \(count) samples")
                    guard value <= maxval else { throw .corrupt(.pnm, reason: "sample \(value) exceeds maxval \(maxval)") }
                    out[index] = scaled(value)
                }
            } else if wide {
                for index in 0..<count {
                    let value = Int(bytes[header.dataOffset + 2 * index]) << 8 | Int(bytes[header.dataOffset + 2 * index + 1])
                    guard value <= maxval else { throw .corrupt(.pnm, reason: "sample \(value) exceeds maxval \(maxval)") }
                    out[index] = scaled(value)
                }
            } else if maxval == 255 {
                out.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[header.dataOffset..<(header.dataOffset + count)]))
            } else {
                for index in 0..<count {
                    let value = Int(bytes[header.dataOffset + index])
                    guard value <= maxval else { throw .corrupt(.pnm, reason: "sample \(value) exceeds maxval \(maxval)") }
                    out[index] = scaled(value)
                }
            }
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// Reads whitespace-separated decimal numbers, skipping `#` comments.
    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var offset: Int

        mutating func number(named name: String, truncatedReason: String? = nil) throws(ImageError) -> Int {
            while offset < bytes.count {
                if isSpace(bytes[offset]) {
                    offset += 1
                } else if bytes[offset] == UInt8(ascii: "#") {
                    while offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D { offset += 1 }
                } else {
                    break
                }
            }
            guard offset < bytes.count else { throw .truncated(.pnm, reason: truncatedReason ?? "the data ends before the \(name)") }
            var value = 0
            var digits = 0
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
                value = value * 10 + Int(bytes[offset] - UInt8(ascii: "0"))
                digits += 1
                offset += 1
                guard value <= 1 << 31 else { throw .corrupt(.pnm, reason: "\(name) has too many digits") }
            }
            guard digits > 0 else {
                throw .corrupt(.pnm, reason: "expected the \(name) as a decimal number at byte \(offset)")
            }
            return value
        }
    }
}
