import CLibPNG
import CPNG
import VisageGeometry

/// PNG through libpng: decoding through the CPNG shim (libpng's low-level API with every limit set, its
/// `longjmp` kept in C), encoding through libpng's simplified API.
///
/// Visage reads IHDR itself first, so the pixel limit is enforced before libpng allocates anything.
/// Ancillary chunks other than tRNS are skipped unread, so a chunk declaring gigabytes, or a compressed
/// text or ICC chunk that inflates to gigabytes, costs nothing.
/// All bit depths decode to 8 bits per channel: 1, 2 and 4-bit gray scale to 0…255, 16-bit samples
/// scale as `round(v × 255 / 65535)`. Gray with alpha and palettes with transparency decode to RGBA8.
/// gAMA, cHRM and iCCP are not applied, as Pillow and OpenCV do not apply them.
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

    /// The largest chunk libpng may allocate. Visage reads only IHDR, PLTE, tRNS and IDAT through libpng
    /// (ancillary chunks are skipped unread; eXIf is read from the bytes in place), none of which needs more.
    package static let chunkByteLimit = 1 << 20

    /// What libpng may hold at once: two chunks, zlib's state, and a few rows of up to 8 bytes a pixel
    /// (the row being inflated, the previous row for filtering, the transformed row).
    package static func memoryLimit(width: Int) -> Int {
        2 * chunkByteLimit + (1 << 20) + 4 * (width * 8 + 64)
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) -> Image {
        var peak = 0
        return try decode(bytes, pixelLimit: pixelLimit, libpngPeakBytes: &peak)
    }

    /// Decodes, and reports the most memory libpng held at once (the pixels are not libpng's).
    ///
    /// libpng's memory is capped at ``memoryLimit(width:)``; only the caller's pixel buffer grows with the
    /// image, and it is allocated after the pixel limit is checked.
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, pixelLimit: Int, libpngPeakBytes: inout Int
    ) throws(ImageError) -> Image {
        let header = try header(bytes)
        try checkPixelLimit(width: header.width, height: header.height, limit: pixelLimit)
        let chunks = scanChunks(bytes)
        try checkImageData(header, bytes: chunks.imageDataBytes, isComplete: chunks.isComplete)
        guard let base = bytes.baseAddress,
              let decoder = vpng_create(
                  base.assumingMemoryBound(to: UInt8.self), bytes.count, UInt32(clamping: min(pixelLimit, Int(Int32.max))),
                  chunkByteLimit, memoryLimit(width: header.width))
        else { throw .corrupt(.png, reason: "cannot create a libpng decoder") }
        defer {
            libpngPeakBytes = vpng_status_of(decoder).pointee.peak_bytes
            vpng_destroy(decoder)
        }
        var read = vpng_header()
        guard vpng_read_header(decoder, &read) == 0 else { throw failure(decoder) }
        // The buffer is sized from Visage's reading of IHDR; libpng must agree before it writes into it.
        guard Int(read.width) == header.width, Int(read.height) == header.height else {
            throw .corrupt(.png, reason: "libpng reads IHDR as \(read.width)×\(read.height), not \(header.width)×\(header.height)")
        }
        let pixelFormat: PixelFormat = switch read.channels {
        case 1: .gray8
        case 3: .rgb8
        default: .rgba8
        }
        return try Image(
            uninitializedWidth: header.width, height: header.height, pixelFormat: pixelFormat, orientation: chunks.orientation
        ) { out throws(ImageError) in
            guard vpng_read_image(decoder, out.baseAddress?.assumingMemoryBound(to: UInt8.self), header.width * pixelFormat.bytesPerPixel) == 0 else {
                throw failure(decoder)
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

    /// Chunk facts libpng is not asked for: the eXIf orientation, transparency (tRNS), the bytes of image
    /// data present (IDAT) and whether the chunks run intact up to IEND.
    private static func scanChunks(
        _ bytes: UnsafeRawBufferPointer
    ) -> (orientation: ImageOrientation, hasTransparency: Bool, imageDataBytes: Int, isComplete: Bool) {
        var offset = 8
        var orientation = ImageOrientation.up
        var hasTransparency = false
        var imageDataBytes = 0
        var isComplete = false
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length <= bytes.count - start else {
                if type == "IDAT" { imageDataBytes += bytes.count - start }
                break
            }
            if type == "eXIf" {
                orientation = EXIFOrientation.read(tiff: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)]))
            } else if type == "tRNS" {
                hasTransparency = true
            } else if type == "IDAT" {
                imageDataBytes += length
            } else if type == "IEND" {
                isComplete = true
                break
            }
            offset = start + length + 4
        }
        return (orientation, hasTransparency, imageDataBytes, isComplete)
    }

    /// Deflate never expands data by more than this factor (258-byte matches coded in about two bits).
    static let maximumInflationRatio = 1032

    /// Refuses image data too short to fill the declared rows, before the pixels are allocated: a header
    /// within the pixel limit over a few bytes of data would otherwise cost its whole size in memory.
    private static func checkImageData(_ header: Header, bytes: Int, isComplete: Bool) throws(ImageError) {
        let samples = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][header.colorType] ?? 1
        let (pixelBits, overflow) = header.width.multipliedReportingOverflow(by: header.height * samples * header.bitDepth)
        let (inflated, inflatedOverflow) = bytes.multipliedReportingOverflow(by: maximumInflationRatio)
        guard overflow || inflatedOverflow || inflated >= pixelBits / 8 else {
            let reason = "\(bytes) bytes of image data inflate to at most \(inflated) bytes, fewer than the \(pixelBits / 8) the \(header.width)×\(header.height) rows need"
            throw isComplete ? .corrupt(.png, reason: reason) : .truncated(.png, reason: "\(reason) (the data ends before IEND)")
        }
    }

    private static func message(_ png: inout png_image) -> String {
        withUnsafeBytes(of: &png.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The failure libpng reported. Data that ends before libpng has read what it needs is truncated.
    private static func failure(_ decoder: OpaquePointer) -> ImageError {
        let status = vpng_status_of(decoder).pointee
        let text = withUnsafeBytes(of: status.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return status.truncated != 0 ? .truncated(.png, reason: "\(text) (the data ends before IEND)") : .corrupt(.png, reason: text)
    }
}
