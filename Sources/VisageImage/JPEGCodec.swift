import CTurboJPEG
import VisageGeometry

/// JPEG through the TurboJPEG API, which reports errors by return value (no `longjmp` crosses Swift).
///
/// Decoding uses the accurate integer IDCT and smooth upsampling (libjpeg's defaults, as Pillow and djpeg).
/// CMYK and YCCK files decode to CMYK and are converted to RGB here, as Pillow converts them.
package enum JPEGCodec {
    package static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageFileInfo {
        let markers = try JPEGMarkers(bytes)
        let colorModel: String
        let pixelFormat: PixelFormat
        switch markers.components {
        case 1: (colorModel, pixelFormat) = ("gray", .gray8)
        case 3: (colorModel, pixelFormat) = (markers.adobeTransform == 0 ? "RGB" : "YCbCr", .rgb8)
        case 4: (colorModel, pixelFormat) = (markers.adobeTransform == 2 ? "YCCK" : "CMYK", .rgb8)
        default: throw .corrupt(.jpeg, reason: "\(markers.components) components; 1, 3 or 4 are supported")
        }
        return ImageFileInfo(
            format: .jpeg, width: markers.width, height: markers.height, orientation: markers.orientation,
            pixelFormat: pixelFormat, bitDepth: markers.precision, colorModel: colorModel,
            isProgressive: markers.isProgressive)
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions) throws(ImageError) -> Image {
        let markers = try JPEGMarkers(bytes)
        try checkPixelLimit(width: markers.width, height: markers.height, limit: options.pixelLimit)
        guard let handle = tjInitDecompress() else { throw .corrupt(.jpeg, reason: "cannot create a TurboJPEG decompressor") }
        defer { tjDestroy(handle) }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        if tjDecompressHeader3(handle, base, UInt(bytes.count), &width, &height, &subsampling, &colorspace) != 0 {
            throw failure(handle)
        }
        // The header libjpeg read is the one it will decode; check its size too.
        try checkPixelLimit(width: Int(width), height: Int(height), limit: options.pixelLimit)

        var (outWidth, outHeight) = (Int(width), Int(height))
        if let maximum = options.maximumDimension {
            (outWidth, outHeight) = scaledSize(width: outWidth, height: outHeight, atLeast: maximum)
        }
        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        let isGray = colorspace == Int32(TJCS_GRAY.rawValue)
        let pixelFormat: PixelFormat = isGray ? .gray8 : .rgb8
        let tjFormat = isCMYK ? TJPF_CMYK : isGray ? TJPF_GRAY : TJPF_RGB
        let decodedBytesPerPixel = isCMYK ? 4 : pixelFormat.bytesPerPixel
        let flags = TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS

        let image = try Image(uninitializedWidth: outWidth, height: outHeight, pixelFormat: pixelFormat, orientation: markers.orientation) { out throws(ImageError) in
            let pitch = outWidth * decodedBytesPerPixel
            let target: UnsafeMutableRawPointer = isCMYK ? .allocate(byteCount: pitch * outHeight, alignment: 16) : out.baseAddress!
            defer { if isCMYK { target.deallocate() } }
            let status = tjDecompress2(
                handle, base, UInt(bytes.count), target.assumingMemoryBound(to: UInt8.self), Int32(outWidth), Int32(pitch),
                Int32(outHeight), Int32(tjFormat.rawValue), flags)
            if status != 0 {
                let error = failure(handle)
                // Warnings leave a complete image, except the one for data that stops early.
                if tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) { throw error }
                if case .truncated = error { throw error }
            }
            if isCMYK {
                convertCMYK(
                    UnsafeRawBufferPointer(start: target, count: pitch * outHeight), to: out, inverted: markers.hasAdobeMarker)
            }
        }
        return image
    }

    /// The smallest libjpeg scaled-IDCT size (factors ≤ 1) whose longer side still reaches `minimum`.
    static func scaledSize(width: Int, height: Int, atLeast minimum: Int) -> (width: Int, height: Int) {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (width, height)
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num <= factor.denom {
            let (num, denom) = (Int(factor.num), Int(factor.denom))
            let scaled = ((width * num + denom - 1) / denom, (height * num + denom - 1) / denom)
            if max(scaled.0, scaled.1) >= minimum, scaled.0 * scaled.1 < best.0 * best.1 { best = scaled }
        }
        return best
    }

    /// CMYK to RGB as Pillow converts it: `R = (255 − K) − (C × (255 − K)) / 255`, rounded the same way.
    /// Adobe applications store the four channels inverted, which its APP14 marker signals.
    private static func convertCMYK(_ cmyk: UnsafeRawBufferPointer, to rgb: UnsafeMutableRawBufferPointer, inverted: Bool) {
        let pixels = rgb.count / 3
        let flip: UInt8 = inverted ? 255 : 0
        for index in 0..<pixels {
            let k = Int(cmyk[4 * index + 3] ^ flip)
            let nk = 255 - k
            for channel in 0..<3 {
                let product = Int(cmyk[4 * index + channel] ^ flip) * nk + 128
                rgb[3 * index + channel] = UInt8(clamping: nk - (((product >> 8) + product) >> 8))
            }
        }
    }

    /// The handle's error as a typed error; libjpeg's "premature end" warning means truncated data.
    private static func failure(_ handle: tjhandle) -> ImageError {
        let message = String(cString: tjGetErrorStr2(handle))
        if message.contains("Premature end") { return .truncated(.jpeg, reason: message) }
        return .corrupt(.jpeg, reason: message)
    }

    /// Compresses with 4:2:0 chroma subsampling (4:4:4 above quality 90; grayscale stays one channel).
    package static func encode(_ image: Image, quality: Int) throws(ImageError) -> [UInt8] {
        guard (1...100).contains(quality) else {
            throw .invalidParameter(name: "JPEG quality", value: "\(quality)", rule: "must be in 1…100")
        }
        guard let handle = tjInitCompress() else { throw .encodingFailed(.jpeg, reason: "cannot create a TurboJPEG compressor") }
        defer { tjDestroy(handle) }
        let tjFormat: TJPF = switch image.pixelFormat {
        case .rgb8: TJPF_RGB
        case .rgba8: TJPF_RGBA
        case .bgra8: TJPF_BGRA
        case .gray8: TJPF_GRAY
        }
        guard let pitch = Int32(exactly: image.bytesPerRow) else {
            throw .encodingFailed(.jpeg, reason: "rows of \(image.bytesPerRow) bytes exceed TurboJPEG's 32-bit pitch")
        }
        let subsampling = image.pixelFormat == .gray8 ? TJSAMP_GRAY : quality > 90 ? TJSAMP_444 : TJSAMP_420
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = withExtendedLifetime(image.storage) {
            tjCompress2(
                handle, image.storage.base.assumingMemoryBound(to: UInt8.self), Int32(image.width), pitch,
                Int32(image.height), Int32(tjFormat.rawValue), &output, &size, Int32(subsampling.rawValue), Int32(quality),
                TJFLAG_ACCURATEDCT)
        }
        defer { tjFree(output) }
        guard status == 0, let output else {
            throw .encodingFailed(.jpeg, reason: String(cString: tjGetErrorStr2(handle)))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
