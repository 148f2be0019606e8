/// Why an image could not be made, read, converted or written.
///
/// Every message names the value at fault and the rule it broke, so it can be shown to a user as is.
public enum ImageError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file or data holds no bytes at all.
    case empty
    /// The first bytes match no supported format; `signature` is their hex dump.
    case unsupportedFormat(signature: String)
    /// The data is a format Visage recognises but does not decode, such as JPEG 2000 or PDF.
    case formatNotSupported(name: String)
    /// The format is decoded by a system library that is not installed (or too old); `package` is the
    /// Debian/Ubuntu package that provides it.
    case codecUnavailable(ImageFileFormat, library: String, package: String, reason: String)
    /// The data ends before the image does.
    case truncated(ImageFileFormat, reason: String)
    /// The data is not a valid image of its format.
    case corrupt(ImageFileFormat, reason: String)
    /// The image has more pixels than the caller's limit allows; checked before any pixel memory is allocated.
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// The path exists but is a directory or another kind of non-regular file.
    case notAFile(path: String)
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// A parameter (size, stride, buffer length, quality…) is outside its valid range.
    case invalidParameter(name: String, value: String, rule: String)
    /// The encoder failed.
    case encodingFailed(ImageFileFormat, reason: String)

    public var description: String {
        switch self {
        case .empty:
            "the image data is empty (0 bytes)"
        case .unsupportedFormat(let signature):
            "unsupported image format: the data starts with \(signature), which is not \(supportedFormatNames)"
        case .formatNotSupported(let name):
            "unsupported image format: \(name); Visage reads \(supportedFormatNames)"
        case .codecUnavailable(let format, _, let package, let reason):
            "\(format.commonNames) needs \(package): apt-get install \(package) (\(reason))"
        case .truncated(let format, let reason):
            "truncated \(format) data: \(reason)"
        case .corrupt(let format, let reason):
            "corrupt \(format) data: \(reason)"
        case .imageTooLarge(let width, let height, let limit):
            "image of \(width)×\(height) pixels exceeds the limit of \(limit) pixels"
        case .notAFile(let path):
            "'\(path)' is not a regular file"
        case .unreadable(let path, let reason):
            "cannot read '\(path)': \(reason)"
        case .invalidParameter(let name, let value, let rule):
            "invalid \(name) \(value): \(rule)"
        case .encodingFailed(let format, let reason):
            "cannot encode \(format): \(reason)"
        }
    }
}

/// Every format Visage decodes, as users name them.
let supportedFormatNames = "JPEG, PNG, HEIC/HEIF, AVIF, WebP, TIFF, GIF, BMP, PPM or PGM"
