import CImageCodecs
import VisageGeometry

/// TIFF through libtiff (loaded at run time), reading from memory: the first page, any photometric
/// interpretation and compression libtiff knows, through its RGBA interface. Rows come back as stored;
/// the Orientation tag is reported as the image's orientation, as JPEG's EXIF is.
///
/// The pixel limit is checked from the first directory before any pixel memory exists, and libtiff's
/// own per-allocation cap (TIFFOpenOptions) keeps a lying strip size from allocating more.
package enum TIFFCodec {
    static func libraryInfo(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) -> vtiff_info {
        var info = vtiff_info()
        var status = vcodec_status()
        guard vtiff_info_read(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, memoryLimit(pixelLimit), &info, &status) == 0 else {
            throw failure(status)
        }
        guard info.width > 0, info.height > 0 else { throw .corrupt(.tiff, reason: "size \(info.width)×\(info.height) must be positive") }
        return info
    }

    static func memoryLimit(_ pixelLimit: Int) -> Int64 { Int64(clamping: imageFileByteLimit(pixelLimit: pixelLimit)) }

    static func failure(_ status: vcodec_status) -> ImageError {
        status.truncated != 0 ? .truncated(.tiff, reason: status.text) : .corrupt(.tiff, reason: status.text)
    }

    static func pixelFormat(_ info: vtiff_info) -> PixelFormat {
        if info.extra_samples > 0 { return .rgba8 }
        // Min-is-white or min-is-black with one sample.
        if info.samples_per_pixel == 1, info.photometric <= 1 { return .gray8 }
        return .rgb8
    }

    static func colorModel(_ info: vtiff_info) -> String {
        switch info.photometric {
        case 0, 1: "gray"
        case 2: "RGB"
        case 3: "palette"
        case 5: "CMYK"
        case 6: "YCbCr"
        default: "photometric \(info.photometric)"
        }
    }

    /// libtiff's RGBA interface premultiplies unassociated alpha (and passes associated alpha through);
    /// ``Image`` holds straight alpha, as PNG, WebP and Pillow do.
    static func unpremultiplied(_ image: Image) -> Image {
        var image = image
        image.withUnsafeMutableBytes { pixels in
            for at in stride(from: 0, to: pixels.count, by: 4) {
                let alpha = Int(pixels[at + 3])
                guard alpha != 0, alpha != 255 else { continue }
                for channel in 0..<3 { pixels[at + channel] = UInt8(min(255, (Int(pixels[at + channel]) * 255 + alpha / 2) / alpha)) }
            }
        }
        return image
    }

    package static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageFileInfo {
        try ImageCodecLibrary.tiff.require()
        let info = try libraryInfo(bytes, pixelLimit: ImageDecodingOptions.defaultPixelLimit)
        return ImageFileInfo(
            format: .tiff, width: Int(info.width), height: Int(info.height),
            orientation: ImageOrientation(exifValue: Int(info.orientation)) ?? .up, pixelFormat: pixelFormat(info),
            bitDepth: Int(info.bits_per_sample), colorModel: colorModel(info), isProgressive: false,
            frameCount: max(1, Int(info.directory_count)))
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) -> Image {
        try ImageCodecLibrary.tiff.require()
        let info = try libraryInfo(bytes, pixelLimit: pixelLimit)
        let width = Int(info.width), height = Int(info.height)
        try checkPixelLimit(width: width, height: height, limit: pixelLimit)
        let orientation = ImageOrientation(exifValue: Int(info.orientation)) ?? .up
        let rgba = try Image(uninitializedWidth: width, height: height, pixelFormat: .rgba8, orientation: orientation) { out throws(ImageError) in
            var status = vcodec_status()
            guard vtiff_decode(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, memoryLimit(pixelLimit),
                out.baseAddress?.assumingMemoryBound(to: UInt8.self), info.width, info.height, &status) == 0
            else { throw failure(status) }
        }
        let format = pixelFormat(info)
        guard format != .rgba8 else { return unpremultiplied(rgba) }
        let channels = format.bytesPerPixel
        return try withExtendedLifetime(rgba.storage) { () throws(ImageError) in
            let source = rgba.storage.base.assumingMemoryBound(to: UInt8.self)
            return try Image(uninitializedWidth: width, height: height, pixelFormat: format, orientation: orientation) { out throws(ImageError) in
                for pixel in 0..<(width * height) {
                    for channel in 0..<channels { out[pixel * channels + channel] = source[pixel * 4 + channel] }
                }
            }
        }
    }
}
