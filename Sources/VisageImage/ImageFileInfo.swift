import Foundation
import VisageGeometry

/// What a file's header says about its image, read without decoding any pixels (for `visage info`).
public struct ImageFileInfo: Sendable, Hashable, Codable {
    public var format: ImageFileFormat
    /// Width of the stored pixels, before orientation.
    public var width: Int
    /// Height of the stored pixels, before orientation.
    public var height: Int
    /// The EXIF orientation (JPEG APP1, PNG eXIf), `.up` when the file has none.
    public var orientation: ImageOrientation
    /// The format ``Image`` decodes this file to.
    public var pixelFormat: PixelFormat
    /// Bits per channel in the file (1, 2, 4, 8 or 16; for PNM the bits needed by its maxval).
    public var bitDepth: Int
    /// The file's colour model as the format names it, e.g. "YCbCr", "CMYK", "palette", "gray+alpha".
    public var colorModel: String
    /// Progressive JPEG or Adam7-interlaced PNG.
    public var isProgressive: Bool

    /// The size of the upright picture, after orientation.
    public var uprightSize: (width: Int, height: Int) { orientation.uprightSize(rawWidth: width, rawHeight: height) }

    public static func read(contentsOf url: URL) throws(ImageError) -> ImageFileInfo {
        try read(data: readImageFile(url))
    }

    /// - Throws: ``ImageError`` when the data is empty, of an unknown format, or its header is invalid.
    public static func read(data: Data) throws(ImageError) -> ImageFileInfo {
        try withBytes(of: data) { bytes throws(ImageError) in
            switch try sniffFormat(bytes) {
            case .jpeg: try JPEGCodec.info(bytes)
            case .png: try PNGCodec.info(bytes)
            case .pnm: try PNMCodec.header(bytes).info
            }
        }
    }
}

/// Throws the pixel-limit error before anything proportional to the image is allocated.
package func checkPixelLimit(width: Int, height: Int, limit: Int) throws(ImageError) {
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    if overflow || pixels > limit { throw .imageTooLarge(width: width, height: height, limit: limit) }
}

/// The format of `bytes`, or the typed error for empty data and unknown signatures.
package func sniffFormat(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageFileFormat {
    guard !bytes.isEmpty else { throw .empty }
    guard let format = ImageFileFormat(sniffing: bytes) else {
        throw .unsupportedFormat(signature: bytes.prefix(8).map { hex($0) }.joined(separator: " "))
    }
    return format
}

private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}

/// `Data.withUnsafeBytes` with a typed-throwing body.
package func withBytes<R>(of data: Data, _ body: (UnsafeRawBufferPointer) throws(ImageError) -> R) throws(ImageError) -> R {
    let result: Result<R, ImageError> = data.withUnsafeBytes { bytes in
        Result { () throws(ImageError) in try body(bytes) }
    }
    return try result.get()
}
