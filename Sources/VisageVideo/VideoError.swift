import VisageImage

/// Why a frame source could not be opened or could not produce a frame.
///
/// Every message names the value at fault and the rule it broke.
public enum VideoError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A parameter (size, frame rate, path…) is outside its valid range.
    case invalidParameter(name: String, value: String, rule: String)
    /// The file, folder or stream could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The folder holds no image files.
    case emptyFolder(path: String)
    /// The stream is not valid in its format (`format` names it, e.g. "YUV4MPEG2").
    case corrupt(format: String, reason: String)
    /// The stream uses a valid feature Visage does not read.
    case unsupported(format: String, feature: String)
    /// The stream ended inside frame `index`.
    case truncatedFrame(index: Int, expectedBytes: Int, receivedBytes: Int)
    /// Frame `index` differs in size from the frames before it.
    case frameSizeChanged(index: Int, expected: String, found: String)
    /// Frame `index` could not be decoded.
    case unreadableFrame(index: Int, path: String, reason: String)
    /// The file or stream holds no video stream (an audio file, for instance).
    case noVideoStream(input: String)
    /// A helper program is not installed; `package` is the Debian package that provides it.
    case toolMissing(tool: String, package: String)
    /// A helper program failed.
    case toolFailed(tool: String, reason: String)

    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let rule):
            "invalid \(name) \(value): \(rule)"
        case .unreadable(let path, let reason):
            "cannot read '\(path)': \(reason)"
        case .emptyFolder(let path):
            "the folder '\(path)' holds no JPEG, PNG, PPM or PGM files"
        case .corrupt(let format, let reason):
            "corrupt \(format) stream: \(reason)"
        case .unsupported(let format, let feature):
            "unsupported \(format) stream: \(feature)"
        case .truncatedFrame(let index, let expected, let received):
            "frame \(index) is truncated: the stream ended after \(received) of its \(expected) bytes"
        case .frameSizeChanged(let index, let expected, let found):
            "frame \(index) is \(found) pixels, but the frames before it are \(expected); a sequence keeps one size"
        case .unreadableFrame(let index, let path, let reason):
            "frame \(index) ('\(path)') cannot be read: \(reason)"
        case .noVideoStream(let input):
            "'\(input)' holds no video stream"
        case .toolMissing(let tool, let package):
            "\(tool) is needed to read this input but is not installed or not on PATH: install the package '\(package)' (Debian/Ubuntu: apt-get install \(package))"
        case .toolFailed(let tool, let reason):
            "\(tool) failed: \(reason)"
        }
    }
}
