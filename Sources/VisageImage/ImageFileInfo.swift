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
            switch try ImageFileFormat(detecting: bytes) {
            case .jpeg: try JPEGCodec.info(bytes)
            case .png: try PNGCodec.info(bytes)
            case .pnm: try PNMCodec.header(bytes).info
            }
        }
    }
}
