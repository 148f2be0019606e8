import CPNG
import VisageGeometry

/// PNG through libpng's simplified API, which keeps libpng's `longjmp` error handling inside libpng.
///
/// Visage reads IHDR itself first, so the pixel limit is enforced before libpng allocates anything.
/// All bit depths decode to 8 bits per channel: 1, 2 and 4-bit gray scale to 0…255, 16-bit samples
/// scale as `round(v × 255 / 65535)`. Gray with alpha and palettes with transparency decode to RGBA8.
/// libpng honours gAMA and cHRM chunks that differ from sRGB (Pillow ignores them).
package enum PNGCodec {
    // The PNG_FORMAT_* combinations are macro expressions Swift does not import; these are their parts.
    private static let color = png_uint_32(PNG_FORMAT_FLAG_COLOR)
    private static let alpha = png_uint_32(PNG_FORMAT_FLAG_ALPHA)
    private static let bgr = png_uint_32(PNG_FORMAT_FLAG_BGR)

    struct Header {
        var width: Int
        var height: Int
        var bitDepth: Int
        var colorType: Int
        var interlaced: Bool
    }

    static func header(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> Header {
        // Signature (8), IHDR length (4) and type (4), then 13 bytes of IHDR.
        guard bytes.count >= 33 else { throw .truncated(.png, reason: "\(bytes.count) bytes cannot hold the signature and IHDR") }
        guard bytes[12..<16].elementsEqual([0x49, 0x48, 0x44, 0x52]) else { throw .corrupt(.png, reason: "the first chunk is not IHDR") }
        let u32 = { (at: Int) in Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        let header = Header(width: u32(16), height: u32(20), bitDepth: Int(bytes[24]), colorType: Int(bytes[25]), interlaced: bytes[28] != 0)
        guard header.width > 0, header.height > 0, header.width < 1 << 31, header.height < 1 << 31 else {
            throw .corrupt(.png, reason: "size \(header.width)×\(header.height) is outside 1…2³¹−1")
        }
        return header
    }

    package static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageFileInfo {
        let header = try header(bytes)
        let chunks = scanChunks(bytes)
        let (colorModel, pixelFormat): (String, PixelFormat)
        switch header.colorType {
        case 0: (colorModel, pixelFormat) = ("gray", chunks.hasTransparency ? .rgba8 : .gray8)
        case 2: (colorModel, pixelFormat) = ("RGB", chunks.hasTransparency ? .rgba8 : .rgb8)
        case 3: (colorModel, pixelFormat) = ("palette", chunks.hasTransparency ? .rgba8 : .rgb8)
        case 4: (colorModel, pixelFormat) = ("gray+alpha", .rgba8)
        case 6: (colorModel, pixelFormat) = ("RGBA", .rgba8)
        default: throw .corrupt(.png, reason: "colour type \(header.colorType) is not 0, 2, 3, 4 or 6")
        }
        return ImageFileInfo(
            format: .png, width: header.width, height: header.height, orientation: chunks.orientation,
            pixelFormat: pixelFormat, bitDepth: header.bitDepth, colorModel: colorModel, isProgressive: header.interlaced)
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) -> Image {
        let header = try header(bytes)
        try checkPixelLimit(width: header.width, height: header.height, limit: pixelLimit)
        let chunks = scanChunks(bytes)
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&png, bytes.baseAddress, bytes.count) != 0 else {
            throw failure(&png, isComplete: chunks.isComplete)
        }
        // The buffer is sized from Visage's reading of IHDR; libpng must agree before it writes into it.
        guard Int(png.width) == header.width, Int(png.height) == header.height else {
            png_image_free(&png)
            throw .corrupt(.png, reason: "libpng reads IHDR as \(png.width)×\(png.height), not \(header.width)×\(header.height)")
        }
        // 16-bit files without gAMA/sRGB are sRGB-encoded like 8-bit ones, not linear.
        png.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)
        let hasColor = png.format & color != 0
        let hasAlpha = png.format & alpha != 0
        let pixelFormat: PixelFormat = hasAlpha ? .rgba8 : hasColor ? .rgb8 : .gray8
        png.format = (hasAlpha || hasColor ? color : 0) | (hasAlpha ? alpha : 0)
        // libpng takes the row stride as a 32-bit count of components.
        guard let stride = Int32(exactly: header.width * pixelFormat.bytesPerPixel) else {
            png_image_free(&png)
            throw .corrupt(.png, reason: "rows of \(header.width) pixels exceed libpng's 32-bit stride")
        }
        return try Image(
            uninitializedWidth: header.width, height: header.height, pixelFormat: pixelFormat, orientation: chunks.orientation
        ) { out throws(ImageError) in
            guard png_image_finish_read(&png, nil, out.baseAddress, stride, nil) != 0 else {
                throw failure(&png, isComplete: chunks.isComplete)
            }
        }
    }

    /// Encodes the stored pixels, 8 bits per channel, without ancillary chunks.
    package static func encode(_ image: Image) throws(ImageError) -> [UInt8] {
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        png.flags = png_uint_32(PNG_IMAGE_FLAG_FAST)  // speed over size: about 10× faster, files a little larger
        png.format = switch image.pixelFormat {
        case .rgb8: color
        case .rgba8: color | alpha
        case .bgra8: color | alpha | bgr
        case .gray8: 0
        }
        // libpng's row stride counts components, which are bytes here; any padding is allowed.
        guard let stride = Int32(exactly: image.bytesPerRow) else {
            throw .encodingFailed(.png, reason: "rows of \(image.bytesPerRow) bytes exceed libpng's 32-bit stride")
        }
        return try withExtendedLifetime(image.storage) { () throws(ImageError) -> [UInt8] in
            // Deflate never grows data by more than this; libpng reports the size it needs if it did.
            let raw = (image.width * image.pixelFormat.bytesPerPixel + 1) * image.height
            var size = raw + raw / 64 + 4096
            var output = [UInt8](repeating: 0, count: size)
            for attempt in 0..<2 {
                let capacity = output.count
                let status = output.withUnsafeMutableBytes {
                    png_image_write_to_memory(&png, $0.baseAddress, &size, 0, image.storage.base, stride, nil)
                }
                if status != 0 { return Array(output.prefix(size)) }
                guard attempt == 0, size > capacity else { break }
                output = [UInt8](repeating: 0, count: size)
                png.warning_or_error = 0
            }
            throw .encodingFailed(.png, reason: message(&png))
        }
    }

    /// Chunk facts the simplified API does not report: the eXIf orientation, transparency (tRNS) and
    /// whether the chunks run intact up to IEND.
    private static func scanChunks(
        _ bytes: UnsafeRawBufferPointer
    ) -> (orientation: ImageOrientation, hasTransparency: Bool, isComplete: Bool) {
        var offset = 8
        var orientation = ImageOrientation.up
        var hasTransparency = false
        var isComplete = false
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length <= bytes.count - start else { break }
            if type == "eXIf" {
                orientation = EXIFOrientation.read(tiff: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)]))
            } else if type == "tRNS" {
                hasTransparency = true
            } else if type == "IEND" {
                isComplete = true
                break
            }
            offset = start + length + 4
        }
        return (orientation, hasTransparency, isComplete)
    }

    private static func message(_ png: inout png_image) -> String {
        withUnsafeBytes(of: &png.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The failure libpng reported, freeing its state. Data that stops before IEND is truncated.
    private static func failure(_ png: inout png_image, isComplete: Bool) -> ImageError {
        let text = message(&png)
        png_image_free(&png)
        return isComplete ? .corrupt(.png, reason: text) : .truncated(.png, reason: "\(text) (the data ends before IEND)")
    }
}
