/// Windows bitmaps, decoded natively: the format is a header and rows, simple enough to check every
/// byte in Swift rather than load a library for it.
///
/// 1, 4 and 8-bit palettes, 16-bit (5-5-5 or bit fields), 24-bit and 32-bit (BGRX or bit fields with
/// alpha), bottom-up and top-down rows. Bit-field channels are scaled to 8 bits as
/// `(v × 255 + max / 2) / max`. RLE-compressed files are refused by name.
package enum BMPCodec {
    /// BITMAPCOREHEADER, INFO, V2, V3, OS/2 2.x, V4 and V5.
    static let knownHeaderSizes: Set<Int> = [12, 40, 52, 56, 64, 108, 124]

    struct Header {
        var width: Int
        var height: Int
        var topDown: Bool
        var bitsPerPixel: Int
        var compression: Int
        var dataOffset: Int
        /// BGR palette entries.
        var palette: [(UInt8, UInt8, UInt8)]
        var masks: (red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32)

        var pixelFormat: PixelFormat { masks.alpha != 0 ? .rgba8 : .rgb8 }
        var stride: Int { ((width * bitsPerPixel + 31) / 32) * 4 }
    }

    static func header(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> Header {
        let reader = ByteReader(bytes, format: .bmp, littleEndian: true)
        guard bytes.count >= 18 else { throw .truncated(.bmp, reason: "\(bytes.count) bytes cannot hold the file and bitmap headers") }
        let dataOffset = try reader.u32(at: 10)
        let headerSize = try reader.u32(at: 14)
        guard knownHeaderSizes.contains(headerSize) else {
            throw .corrupt(.bmp, reason: "bitmap header of \(headerSize) bytes; 12, 40, 52, 56, 64, 108 or 124 are defined")
        }
        guard bytes.count >= 14 + headerSize else {
            throw .truncated(.bmp, reason: "the \(headerSize)-byte bitmap header runs past the end (\(bytes.count) bytes)")
        }
        var width: Int, height: Int, bits: Int, compression = 0, colorsUsed = 0, paletteEntrySize = 4
        if headerSize == 12 {
            width = try reader.u16(at: 18)
            height = try reader.u16(at: 20)
            bits = try reader.u16(at: 24)
            paletteEntrySize = 3
        } else {
            width = try reader.i32(at: 18)
            height = try reader.i32(at: 22)
            bits = try reader.u16(at: 28)
            compression = try reader.u32(at: 30)
            colorsUsed = try reader.u32(at: 46)
        }
        let topDown = height < 0
        height = abs(height)
        guard width > 0, height > 0 else { throw .corrupt(.bmp, reason: "size \(width)×\(height) must be positive") }
        guard [1, 4, 8, 16, 24, 32].contains(bits) else {
            throw .corrupt(.bmp, reason: "\(bits) bits per pixel; 1, 4, 8, 16, 24 or 32 are defined")
        }
        switch compression {
        case 0, 3, 6: break
        case 1, 2: throw .formatNotSupported(name: "BMP with RLE\(compression == 1 ? 8 : 4) compression")
        case 4, 5: throw .formatNotSupported(name: "BMP holding a \(compression == 4 ? "JPEG" : "PNG")")
        default: throw .corrupt(.bmp, reason: "compression \(compression) is not defined")
        }
        if compression != 0, bits != 16, bits != 32 {
            throw .corrupt(.bmp, reason: "bit fields with \(bits) bits per pixel; only 16 and 32 take them")
        }

        var masks: (red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32)
        var afterHeader = 14 + headerSize
        if compression == 3 || compression == 6 {
            // INFO headers keep the masks after the header; later versions inside it.
            let maskOffset = 14 + 40
            let count = compression == 6 || headerSize >= 56 ? 4 : 3
            masks = (UInt32(try reader.u32(at: maskOffset)), UInt32(try reader.u32(at: maskOffset + 4)),
                     UInt32(try reader.u32(at: maskOffset + 8)), count == 4 ? UInt32(try reader.u32(at: maskOffset + 12)) : 0)
            if headerSize == 40 { afterHeader += 4 * count }
            guard masks.red != 0, masks.green != 0, masks.blue != 0 else {
                throw .corrupt(.bmp, reason: "a colour bit-field mask is zero")
            }
        } else if bits == 16 {
            masks = (0x7C00, 0x03E0, 0x001F, 0)
        } else {
            masks = (0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0)
        }

        var palette: [(UInt8, UInt8, UInt8)] = []
        if bits <= 8 {
            let entries = colorsUsed == 0 ? 1 << bits : colorsUsed
            guard entries <= 1 << bits else { throw .corrupt(.bmp, reason: "\(entries) palette entries for \(bits) bits per pixel") }
            let end = afterHeader + entries * paletteEntrySize
            guard end <= bytes.count else { throw .truncated(.bmp, reason: "the palette of \(entries) entries runs past the end") }
            palette.reserveCapacity(entries)
            for entry in 0..<entries {
                let at = afterHeader + entry * paletteEntrySize
                palette.append((bytes[at + 2], bytes[at + 1], bytes[at]))
            }
        }
        guard dataOffset >= 14 + headerSize, dataOffset <= bytes.count else {
            throw dataOffset > bytes.count
                ? .truncated(.bmp, reason: "the pixels start at byte \(dataOffset), past the end (\(bytes.count) bytes)")
                : .corrupt(.bmp, reason: "the pixels start at byte \(dataOffset), inside the headers")
        }
        return Header(
            width: width, height: height, topDown: topDown, bitsPerPixel: bits, compression: compression,
            dataOffset: dataOffset, palette: palette, masks: masks)
    }

    package static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageFileInfo {
        let header = try header(bytes)
        let model = header.bitsPerPixel <= 8 ? "palette" : header.masks.alpha != 0 ? "BGRA" : "BGR"
        return ImageFileInfo(
            format: .bmp, width: header.width, height: header.height, orientation: .up, pixelFormat: header.pixelFormat,
            bitDepth: header.bitsPerPixel, colorModel: model, isProgressive: false)
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) -> Image {
        let header = try header(bytes)
        try checkPixelLimit(width: header.width, height: header.height, limit: pixelLimit)
        let stride = header.stride
        let (needed, overflow) = stride.multipliedReportingOverflow(by: header.height)
        guard !overflow, header.dataOffset + needed <= bytes.count else {
            throw .truncated(.bmp, reason: "\(bytes.count - header.dataOffset) bytes of pixels, \(overflow ? "more than \(Int.max)" : "\(needed)") needed for \(header.width)×\(header.height)")
        }
        let format = header.pixelFormat
        let channels = format.bytesPerPixel
        let palette = header.palette
        let fields = [header.masks.red, header.masks.green, header.masks.blue, header.masks.alpha].map(BitField.init)
        return try Image(uninitializedWidth: header.width, height: header.height, pixelFormat: format) { out throws(ImageError) in
            for y in 0..<header.height {
                let source = header.dataOffset + (header.topDown ? y : header.height - 1 - y) * stride
                let row = UnsafeRawBufferPointer(rebasing: bytes[source..<(source + stride)])
                var at = y * header.width * channels
                for x in 0..<header.width {
                    switch header.bitsPerPixel {
                    case 1, 4, 8:
                        let bits = header.bitsPerPixel
                        let bit = x * bits
                        let index = Int(row[bit / 8] >> (8 - bits - bit % 8)) & ((1 << bits) - 1)
                        // Pillow and browsers show an index past the palette as black.
                        let color = index < palette.count ? palette[index] : (0, 0, 0)
                        out[at] = color.0
                        out[at + 1] = color.1
                        out[at + 2] = color.2
                    case 24:
                        out[at] = row[3 * x + 2]
                        out[at + 1] = row[3 * x + 1]
                        out[at + 2] = row[3 * x]
                    default:
                        let value = header.bitsPerPixel == 16
                            ? UInt32(row[2 * x]) | UInt32(row[2 * x + 1]) << 8
                            : UInt32(row[4 * x]) | UInt32(row[4 * x + 1]) << 8 | UInt32(row[4 * x + 2]) << 16 | UInt32(row[4 * x + 3]) << 24
                        for channel in 0..<channels { out[at + channel] = fields[channel].scaled(value) }
                    }
                    at += channels
                }
            }
        }
    }

    /// One channel's mask: its shift and width, and the scale of its values to 0…255.
    struct BitField {
        var shift: UInt32
        var maximum: UInt32

        init(_ mask: UInt32) {
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            maximum = mask >> shift
        }

        func scaled(_ value: UInt32) -> UInt8 {
            guard maximum != 0 else { return 255 }
            let v = UInt64((value >> shift) & maximum)
            return UInt8((v * 255 + UInt64(maximum) / 2) / UInt64(maximum))
        }
    }
}
