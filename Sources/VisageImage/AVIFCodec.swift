import CImageCodecs
import VisageGeometry

/// AVIF through libavif (loaded at run time): the first image of a still or a sequence, with `irot`/`imir`
/// reported as the orientation (libavif leaves pixels untransformed, as Visage wants). libavif's own size
/// and dimension limits are set from the pixel limit, and its parse reads the container only, so the size
/// is known and checked before any pixel memory exists. Clean-aperture crops (`clap`) are not applied.
package enum AVIFCodec {
    /// libavif 0.11 accepts no image size limit above its default of 16384 × 16384.
    static let largestSizeLimit = 16384 * 16384

    static func limits(_ pixelLimit: Int) -> (pixels: UInt32, side: UInt32) {
        (UInt32(clamping: min(pixelLimit, largestSizeLimit)), UInt32(clamping: min(pixelLimit, 1 << 16)))
    }

    static func libraryInfo(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) -> vavif_info {
        var info = vavif_info()
        var status = vcodec_status()
        let limits = limits(pixelLimit)
        guard vavif_info_read(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, limits.pixels, limits.side, &info, &status) == 0 else {
            // libavif refuses sizes over its limits while parsing; say which size when the container shows it.
            if let container = try? HEIFContainer(bytes, format: .avif) {
                try checkPixelLimit(width: container.width, height: container.height, limit: pixelLimit)
            }
            throw HEIFCodec.failure(status, .avif)
        }
        return info
    }

    static func orientation(_ info: vavif_info) -> ImageOrientation {
        ImageOrientation(quarterTurnsCounterClockwise: Int(max(0, info.rotation)), mirror: info.mirror < 0 ? nil : Int(info.mirror))
    }

    package static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageFileInfo {
        try ImageCodecLibrary.avif.require()
        // The header probe reports a claim without judging it against a caller's limit.
        let info = try libraryInfo(bytes, pixelLimit: Int(UInt32.max))
        return ImageFileInfo(
            format: .avif, width: Int(info.width), height: Int(info.height), orientation: orientation(info),
            pixelFormat: info.has_alpha != 0 ? .rgba8 : .rgb8, bitDepth: Int(info.depth), colorModel: "YCbCr",
            isProgressive: false, frameCount: Int(info.image_count))
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) -> Image {
        try ImageCodecLibrary.avif.require()
        let info = try libraryInfo(bytes, pixelLimit: pixelLimit)
        let width = Int(info.width), height = Int(info.height)
        try checkPixelLimit(width: width, height: height, limit: pixelLimit)
        let rgba = info.has_alpha != 0
        let format: PixelFormat = rgba ? .rgba8 : .rgb8
        let limits = limits(pixelLimit)
        return try Image(uninitializedWidth: width, height: height, pixelFormat: format, orientation: orientation(info)) { out throws(ImageError) in
            var status = vcodec_status()
            guard vavif_decode(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, limits.pixels, limits.side, rgba ? 1 : 0,
                out.baseAddress?.assumingMemoryBound(to: UInt8.self), width * format.bytesPerPixel, Int32(width), Int32(height), &status) == 0
            else { throw HEIFCodec.failure(status, .avif) }
        }
    }
}
