import CImageCodecs
import VisageGeometry

/// HEIC/HEIF through libheif (loaded at run time). libheif decodes the primary image's pixels without
/// its transformations; Visage reads `irot`/`imir` itself (``HEIFContainer``) and reports them as the
/// image's orientation, so `applyOrientation: false` keeps the stored pixels as for JPEG's EXIF.
/// A clean aperture (`clap`) is cropped here too, since MIAF applies it before the rotation.
///
/// The pixel limit is checked from `ispe` before libheif sees the data; libheif's own maximum image
/// size is set as well. EXIF orientation inside a HEIF is ignored: the HEIF transformations govern.
package enum HEIFCodec {
    /// libheif's per-side limit: nothing Visage accepts is wider, and libheif refuses larger claims itself.
    static let sideLimit: Int32 = 1 << 16

    static func libraryInfo(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> vheif_info {
        var info = vheif_info()
        var status = vcodec_status()
        guard vheif_info_read(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, sideLimit, &info, &status) == 0 else {
            throw failure(status, .heif)
        }
        return info
    }

    static func failure(_ status: vcodec_status, _ format: ImageFileFormat) -> ImageError {
        status.truncated != 0 ? .truncated(format, reason: status.text) : .corrupt(format, reason: status.text)
    }

    package static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageFileInfo {
        let container = try HEIFContainer(bytes)
        try ImageCodecLibrary.heif.require()
        let info = try libraryInfo(bytes)
        return ImageFileInfo(
            format: .heif, width: container.width, height: container.height, orientation: container.orientation,
            pixelFormat: info.has_alpha != 0 ? .rgba8 : .rgb8, bitDepth: Int(info.bit_depth), colorModel: "YCbCr",
            isProgressive: false, frameCount: Int(info.image_count))
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) -> Image {
        let container = try HEIFContainer(bytes)
        try checkPixelLimit(width: container.codedWidth, height: container.codedHeight, limit: pixelLimit)
        try ImageCodecLibrary.heif.require()
        let info = try libraryInfo(bytes)
        guard Int(info.width) == container.codedWidth, Int(info.height) == container.codedHeight else {
            throw .corrupt(.heif, reason: "libheif reads the primary image as \(info.width)×\(info.height), not \(container.codedWidth)×\(container.codedHeight)")
        }
        let rgba = info.has_alpha != 0
        if rgba {
            // libheif 1.15 cannot decode an alpha plane without its transformations ("Unsupported color
            // conversion"): the upright decode is turned back into the stored picture instead.
            let upright = try decodeTransformed(bytes, rgba: true, pixelLimit: pixelLimit)
            let inverse = container.orientation.inverse
            return upright.withOrientation(inverse).applyingOrientation().withOrientation(container.orientation)
        }
        let format: PixelFormat = .rgb8
        let coded = try Image(uninitializedWidth: container.codedWidth, height: container.codedHeight, pixelFormat: format, orientation: container.orientation) { out throws(ImageError) in
            var status = vcodec_status()
            guard vheif_decode(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, sideLimit, 0,
                out.baseAddress?.assumingMemoryBound(to: UInt8.self), container.codedWidth * format.bytesPerPixel,
                Int32(container.codedWidth), Int32(container.codedHeight), &status) == 0
            else { throw failure(status, .heif) }
        }
        let crop = container.crop
        guard (crop.width, crop.height) != (coded.width, coded.height) else { return coded }
        // The clean aperture, which MIAF applies before rotation and mirroring.
        let pixel = format.bytesPerPixel
        return try withExtendedLifetime(coded.storage) { () throws(ImageError) in
            let source = coded.storage.base.assumingMemoryBound(to: UInt8.self)
            return try Image(uninitializedWidth: crop.width, height: crop.height, pixelFormat: format, orientation: container.orientation) { out throws(ImageError) in
                for row in 0..<crop.height {
                    let from = source + (crop.y + row) * coded.bytesPerRow + crop.x * pixel
                    out.baseAddress!.advanced(by: row * crop.width * pixel).copyMemory(from: from, byteCount: crop.width * pixel)
                }
            }
        }
    }

    /// libheif applying the item's transformations itself: the reference the tests hold Visage's reading to.
    package static func decodeTransformed(_ bytes: UnsafeRawBufferPointer, rgba: Bool, pixelLimit: Int) throws(ImageError) -> Image {
        let container = try HEIFContainer(bytes)
        try checkPixelLimit(width: container.codedWidth, height: container.codedHeight, limit: pixelLimit)
        try ImageCodecLibrary.heif.require()
        var info = vheif_info()
        var status = vcodec_status()
        guard vheif_info_read(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, sideLimit, &info, &status) == 0 else {
            throw failure(status, .heif)
        }
        let width = Int(info.display_width), height = Int(info.display_height)
        try checkPixelLimit(width: width, height: height, limit: pixelLimit)
        let format: PixelFormat = rgba ? .rgba8 : .rgb8
        return try Image(uninitializedWidth: width, height: height, pixelFormat: format) { out throws(ImageError) in
            var status = vcodec_status()
            guard vheif_decode_transformed(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, sideLimit, rgba ? 1 : 0,
                out.baseAddress?.assumingMemoryBound(to: UInt8.self), width * format.bytesPerPixel,
                Int32(width), Int32(height), &status) == 0
            else { throw failure(status, .heif) }
        }
    }
}
