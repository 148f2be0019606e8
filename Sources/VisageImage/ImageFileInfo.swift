import Foundation
import VisageGeometry

/// What a file's header says about its image, read without decoding any pixels (for `visage info`).
public struct ImageFileInfo: Sendable, Hashable, Codable {
    public var format: ImageFileFormat
    /// Width of the stored pixels, before orientation.
    public var width: Int
    /// Height of the stored pixels, before orientation.
    public var height: Int
    /// The orientation: EXIF (JPEG APP1, PNG eXIf, WebP EXIF), the TIFF tag, or HEIF/AVIF `irot`/`imir`; `.up` when none.
    public var orientation: ImageOrientation
    /// The format ``Image`` decodes this file to.
    public var pixelFormat: PixelFormat
    /// Bits per channel in the file (1, 2, 4, 8 or 16; for PNM the bits needed by its maxval).
    public var bitDepth: Int
    /// The file's colour model as the format names it, e.g. "YCbCr", "CMYK", "palette", "gray+alpha".
    public var colorModel: String
    /// Progressive JPEG, Adam7-interlaced PNG or interlaced GIF.
    public var isProgressive: Bool
    /// How many images or frames the file holds: animation frames (GIF, WebP), top-level images (HEIF),
    /// frames of an image sequence (AVIF) or pages (TIFF). Decoding always uses the first (HEIF: primary).
    public var frameCount: Int = 1

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
            case .heif: try HEIFCodec.info(bytes)
            case .avif: try AVIFCodec.info(bytes)
            case .webp: try WebPCodec.info(bytes)
            case .tiff: try TIFFCodec.info(bytes)
            case .gif: try GIFCodec.info(bytes)
            case .bmp: try BMPCodec.info(bytes)
            }
        }
    }
}
