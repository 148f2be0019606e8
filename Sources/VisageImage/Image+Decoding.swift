import Foundation

extension Image {
    /// Decodes a JPEG, PNG, HEIC/HEIF, AVIF, WebP, TIFF, GIF, BMP, PPM or PGM file; the content decides
    /// the format, not the extension. HEIF, AVIF, WebP and TIFF need their system library at run time
    /// (``ImageFileFormat/availability``); multi-image files give their first (HEIF: primary) image.
    ///
    /// - Throws: ``ImageError/notAFile(path:)`` for directories, ``ImageError/unreadable(path:reason:)``
    ///   when the file cannot be opened, and the errors of ``init(data:options:)``.
    public init(contentsOf url: URL, options: ImageDecodingOptions = .init()) throws(ImageError) {
        try self.init(data: readImageFile(url, maximumBytes: imageFileByteLimit(pixelLimit: options.pixelLimit)), options: options)
    }

    /// Decodes image data into RGB8, RGBA8 or Gray8 (see ``ImageFileInfo/pixelFormat``).
    ///
    /// The header is read and the pixel limit checked before any pixel memory is allocated.
    /// - Throws: ``ImageError/empty``, ``ImageError/unsupportedFormat(signature:)``,
    ///   ``ImageError/truncated(_:reason:)``, ``ImageError/corrupt(_:reason:)``,
    ///   ``ImageError/imageTooLarge(width:height:limit:)``, ``ImageError/formatNotSupported(name:)``,
    ///   ``ImageError/codecUnavailable(_:library:package:reason:)``.
    public init(data: Data, options: ImageDecodingOptions = .init()) throws(ImageError) {
        if let maximum = options.maximumDimension, maximum < 1 {
            throw .invalidParameter(name: "maximumDimension", value: "\(maximum)", rule: "must be at least 1")
        }
        if options.threads < 1 {
            throw .invalidParameter(name: "threads", value: "\(options.threads)", rule: "must be at least 1")
        }
        if let minimum = options.minimumDimension, minimum < 1 {
            throw .invalidParameter(name: "minimumDimension", value: "\(minimum)", rule: "must be at least 1")
        }
        var image = try withBytes(of: data) { bytes throws(ImageError) in
            switch try ImageFileFormat(detecting: bytes) {
            case .jpeg: try JPEGCodec.decode(bytes, options: options)
            case .png: try PNGCodec.decode(bytes, pixelLimit: options.pixelLimit)
            case .pnm: try PNMCodec.decode(bytes, pixelLimit: options.pixelLimit)
            case .heif: try HEIFCodec.decode(bytes, pixelLimit: options.pixelLimit)
            case .avif: try AVIFCodec.decode(bytes, pixelLimit: options.pixelLimit)
            case .webp: try WebPCodec.decode(bytes, pixelLimit: options.pixelLimit)
            case .tiff: try TIFFCodec.decode(bytes, pixelLimit: options.pixelLimit)
            case .gif: try GIFCodec.decode(bytes, pixelLimit: options.pixelLimit)
            case .bmp: try BMPCodec.decode(bytes, pixelLimit: options.pixelLimit)
            }
        }
        if let maximum = options.maximumDimension, max(image.width, image.height) > maximum {
            let size = Self.fittingSize(width: image.width, height: image.height, maximumDimension: maximum)
            image = try image.resized(width: size.width, height: size.height, method: .area)
        }
        self = options.applyOrientation ? image.applyingOrientation() : image
    }

    /// The size with the longer side `maximumDimension` and the aspect ratio kept (each side at least 1).
    package static func fittingSize(width: Int, height: Int, maximumDimension: Int) -> (width: Int, height: Int) {
        let scale = Double(maximumDimension) / Double(max(width, height))
        return (max(1, min(maximumDimension, Int((Double(width) * scale).rounded()))),
                max(1, min(maximumDimension, Int((Double(height) * scale).rounded()))))
    }
}
