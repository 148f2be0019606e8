import CImageCodecs
import VisageGeometry

/// WebP through libwebp (loaded at run time), with the RIFF container read here: the canvas size and
/// flags (VP8X), the EXIF orientation, and animation frames, so that an animated file decodes its first
/// frame with libwebp's still-image API (no libwebpdemux needed).
///
/// The first frame of an animation is placed on a transparent canvas, as WebP's animation decoder starts.
package enum WebPCodec {
    struct Chunk {
        var fourCC: String
        /// The payload's range in the file.
        var range: Range<Int>
        /// The chunk with its header and padding, as it is copied into a synthetic file.
        var whole: Range<Int>
    }

    struct Container {
        var chunks: [Chunk]
        /// VP8X's canvas and flags; nil for a simple (VP8 or VP8L only) file.
        var canvas: (width: Int, height: Int, flags: Int)?
        var orientation: ImageOrientation
        var frames: [Chunk]
        /// True when the RIFF size claims more bytes than the data has.
        var isTruncated: Bool

        var isAnimated: Bool { (canvas?.flags ?? 0) & 0x02 != 0 }
        var hasAlpha: Bool { (canvas?.flags ?? 0) & 0x10 != 0 }
    }

    static func container(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> Container {
        let reader = ByteReader(bytes, format: .webp, littleEndian: true)
        let riffEnd = try reader.u32(at: 4) + 8
        let end = min(riffEnd, bytes.count)
        var chunks: [Chunk] = []
        var offset = 12
        while offset + 8 <= end {
            let fourCC = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = try reader.u32(at: offset + 4)
            let payload = offset + 8
            // A chunk that runs past the data ends the walk: libwebp reports the truncation.
            guard size <= end - payload else { break }
            let next = min(end, payload + size + (size & 1))
            chunks.append(Chunk(fourCC: fourCC, range: payload..<(payload + size), whole: offset..<next))
            offset = next
        }
        guard !chunks.isEmpty else {
            throw riffEnd > bytes.count ? .truncated(.webp, reason: "the data ends before the first chunk")
                : .corrupt(.webp, reason: "the RIFF container holds no chunk")
        }
        var canvas: (Int, Int, Int)?
        if let vp8x = chunks.first(where: { $0.fourCC == "VP8X" }), vp8x.range.count >= 10 {
            let at = vp8x.range.lowerBound
            canvas = (try reader.u24(at: at + 4) + 1, try reader.u24(at: at + 7) + 1, try reader.u8(at: at))
        }
        var orientation = ImageOrientation.up
        if let exif = chunks.first(where: { $0.fourCC == "EXIF" }) {
            let payload = UnsafeRawBufferPointer(rebasing: bytes[exif.range])
            orientation = EXIFOrientation.read(tiff: EXIFOrientation.tiff(inAPP1: payload) ?? payload)
        }
        return Container(
            chunks: chunks, canvas: canvas, orientation: orientation, frames: chunks.filter { $0.fourCC == "ANMF" },
            isTruncated: riffEnd > bytes.count)
    }

    package static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageFileInfo {
        try ImageCodecLibrary.webp.require()
        let webp = try container(bytes)
        let features = try features(bytes, webp)
        let size = webp.isAnimated ? (webp.canvas!.width, webp.canvas!.height) : (features.width, features.height)
        let alpha = webp.isAnimated ? webp.hasAlpha : features.hasAlpha
        return ImageFileInfo(
            format: .webp, width: size.0, height: size.1, orientation: webp.orientation, pixelFormat: alpha ? .rgba8 : .rgb8,
            bitDepth: 8, colorModel: webp.isAnimated ? "animated" : features.format == 2 ? "lossless" : "lossy",
            isProgressive: false, frameCount: webp.isAnimated ? webp.frames.count : 1)
    }

    struct Features {
        var width, height, format: Int
        var hasAlpha, hasAnimation: Bool
    }

    /// libwebp's reading of the headers (no pixel memory).
    private static func features(_ bytes: UnsafeRawBufferPointer, _ webp: Container) throws(ImageError) -> Features {
        var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0, animation: Int32 = 0, format: Int32 = 0
        let status = vwebp_features(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &width, &height, &alpha, &animation, &format)
        guard status == 0 else { throw failure(status: status, webp, what: "header") }
        return Features(width: Int(width), height: Int(height), format: Int(format), hasAlpha: alpha != 0, hasAnimation: animation != 0)
    }

    private static func failure(status: Int32, _ webp: Container, what: String) -> ImageError {
        if status == 7 || webp.isTruncated { return .truncated(.webp, reason: "the \(what) needs more data than the file has") }
        let reason = switch status {
        case 4: "libwebp does not support a feature of this \(what)"
        case 3: "libwebp rejects the \(what)'s bitstream"
        default: "libwebp cannot decode the \(what) (status \(status))"
        }
        return .corrupt(.webp, reason: reason)
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) -> Image {
        try ImageCodecLibrary.webp.require()
        let webp = try container(bytes)
        guard webp.isAnimated else {
            let features = try features(bytes, webp)
            try checkPixelLimit(width: features.width, height: features.height, limit: pixelLimit)
            let format: PixelFormat = features.hasAlpha ? .rgba8 : .rgb8
            return try Image(uninitializedWidth: features.width, height: features.height, pixelFormat: format, orientation: webp.orientation) { out throws(ImageError) in
                try decodeStill(bytes, into: out, stride: features.width * format.bytesPerPixel, rgba: features.hasAlpha, webp)
            }
        }
        return try decodeFirstFrame(bytes, webp, pixelLimit: pixelLimit)
    }

    private static func decodeStill(
        _ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer, stride: Int, rgba: Bool, _ webp: Container
    ) throws(ImageError) {
        let result = vwebp_decode(
            bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, rgba ? 1 : 0,
            out.baseAddress?.assumingMemoryBound(to: UInt8.self), out.count, Int32(stride))
        guard result == 0 else { throw failure(status: 3, webp, what: "image") }
    }

    /// The first ANMF frame, rewrapped as a still VP8X file for libwebp and placed on the canvas.
    private static func decodeFirstFrame(_ bytes: UnsafeRawBufferPointer, _ webp: Container, pixelLimit: Int) throws(ImageError) -> Image {
        let canvas = webp.canvas!
        try checkPixelLimit(width: canvas.width, height: canvas.height, limit: pixelLimit)
        guard let frame = webp.frames.first else {
            throw webp.isTruncated ? .truncated(.webp, reason: "the data ends before the first animation frame")
                : .corrupt(.webp, reason: "an animated file without frames")
        }
        let reader = ByteReader(bytes, format: .webp, littleEndian: true)
        let at = frame.range.lowerBound
        guard frame.range.count >= 16 else { throw .corrupt(.webp, reason: "an ANMF chunk of \(frame.range.count) bytes") }
        let left = try reader.u24(at: at) * 2, top = try reader.u24(at: at + 3) * 2
        let width = try reader.u24(at: at + 6) + 1, height = try reader.u24(at: at + 9) + 1
        try checkPixelLimit(width: width, height: height, limit: pixelLimit)
        let body = Array(bytes[(at + 16)..<frame.range.upperBound])
        let hasAlphaChunk = body.count >= 4 && body[0..<4].elementsEqual(Array("ALPH".utf8))
        var still: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + Array("VP8X".utf8) + [10, 0, 0, 0]
        still += [hasAlphaChunk ? 0x10 : 0, 0, 0, 0]
        still += [UInt8(truncatingIfNeeded: width - 1), UInt8(truncatingIfNeeded: (width - 1) >> 8), UInt8(truncatingIfNeeded: (width - 1) >> 16)]
        still += [UInt8(truncatingIfNeeded: height - 1), UInt8(truncatingIfNeeded: (height - 1) >> 8), UInt8(truncatingIfNeeded: (height - 1) >> 16)]
        still += body
        let riffSize = still.count - 8
        for byte in 0..<4 { still[4 + byte] = UInt8(truncatingIfNeeded: riffSize >> (8 * byte)) }

        let rgba = webp.hasAlpha
        let channels = rgba ? 4 : 3
        let pixels = UnsafeMutableRawBufferPointer.allocate(byteCount: width * height * 4, alignment: 16)
        defer { pixels.deallocate() }
        let decoded: Result<Void, ImageError> = still.withUnsafeBytes { frameBytes in
            Result { () throws(ImageError) in try decodeStill(frameBytes, into: pixels, stride: width * 4, rgba: true, webp) }
        }
        try decoded.get()
        return try Image(uninitializedWidth: canvas.width, height: canvas.height, pixelFormat: rgba ? .rgba8 : .rgb8, orientation: webp.orientation) { out throws(ImageError) in
            out.initializeMemory(as: UInt8.self, repeating: 0)
            for y in 0..<height where top + y < canvas.height {
                for x in 0..<width where left + x < canvas.width {
                    let source = (y * width + x) * 4
                    let target = ((top + y) * canvas.width + left + x) * channels
                    for channel in 0..<channels { out[target + channel] = pixels[source + channel] }
                }
            }
        }
    }
}
