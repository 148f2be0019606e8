/// The stream header of a YUV4MPEG2 (`.y4m`) file: `YUV4MPEG2 W640 H480 F30000:1001 Ip A1:1 C420jpeg`.
///
/// Parameters are single-letter tagged and space separated (the format of mjpegtools' `yuv4mpeg.h`):
/// `W` width and `H` height (required), `F` frame rate as a ratio (required), `I` interlacing (ignored),
/// `A` pixel aspect (``pixelAspect``), `C` chroma layout (`420jpeg` when absent) and `X` comments, of which
/// ffmpeg's `XCOLORRANGE=FULL` selects full-range YUV.
public struct Y4MHeader: Sendable, Hashable {
    /// How the chroma planes are subsampled; the 4:2:0 sitings (jpeg, paldv, mpeg2) differ by under a
    /// chroma pixel and are all read by replicating each chroma sample over its 2×2 luma pixels.
    public enum Chroma: String, Sendable, Hashable {
        case yuv420 = "420", yuv420jpeg = "420jpeg", yuv420paldv = "420paldv", yuv420mpeg2 = "420mpeg2"
        case yuv422 = "422", yuv444 = "444", yuv444alpha = "444alpha", mono

        /// Chroma plane size for a `width × height` frame (0×0 for mono).
        func chromaSize(width: Int, height: Int) -> (width: Int, height: Int) {
            switch self {
            case .yuv420, .yuv420jpeg, .yuv420paldv, .yuv420mpeg2: ((width + 1) / 2, (height + 1) / 2)
            case .yuv422: ((width + 1) / 2, height)
            case .yuv444, .yuv444alpha: (width, height)
            case .mono: (0, 0)
            }
        }
    }

    public var width: Int
    public var height: Int
    /// Frames per second (`F` numerator over denominator).
    public var frameRate: Double
    public var chroma: Chroma
    /// Full-range YUV (0…255) rather than video range (16…235); set by `XCOLORRANGE=FULL`.
    public var fullRange: Bool
    /// A pixel's width over its height (`A`; 1 when absent or unknown, `A0:0`): ffmpeg writes the
    /// source's sample aspect ratio here, 128:117 for the CIF/QCIF test sequences.
    public var pixelAspect = 1.0

    /// The longest header line accepted, in bytes.
    static let maximumLineLength = 1024
    static let format = "YUV4MPEG2"

    /// Parses a header line (without its newline) and checks the size against ``FrameLimits``.
    /// - Throws: ``VideoError/corrupt(format:reason:)`` for a malformed or missing parameter,
    ///   ``VideoError/unsupported(format:feature:)`` for chroma layouts deeper than 8 bits.
    public init(line: [UInt8]) throws(VideoError) {
        let text = String(decoding: line, as: UTF8.self)
        let tokens = text.split(separator: " ", omittingEmptySubsequences: true)
        guard tokens.first == "YUV4MPEG2" else {
            throw .corrupt(format: Self.format, reason: "the stream does not start with 'YUV4MPEG2 '")
        }
        var width: Int?, height: Int?, frameRate: Double?
        var chroma = Chroma.yuv420jpeg
        var fullRange = false
        var pixelAspect = 1.0
        for token in tokens.dropFirst() {
            let value = token.dropFirst()
            switch token.first {
            case "W": width = Int(value)
            case "H": height = Int(value)
            case "F":
                let parts = value.split(separator: ":")
                guard parts.count == 2, let numerator = Int(parts[0]), let denominator = Int(parts[1]),
                      numerator > 0, denominator > 0
                else { throw .corrupt(format: Self.format, reason: "frame rate 'F\(value)' is not a ratio of two positive integers") }
                frameRate = Double(numerator) / Double(denominator)
            case "C":
                guard let layout = Chroma(rawValue: String(value)) else {
                    throw .unsupported(format: Self.format, feature: "chroma layout 'C\(value)' (8-bit 420, 422, 444, 444alpha and mono are read)")
                }
                chroma = layout
            case "X":
                if value == "COLORRANGE=FULL" { fullRange = true }
            case "A":
                let parts = value.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 2, parts[0] >= 0, parts[1] >= 0 else {
                    throw .corrupt(format: Self.format, reason: "pixel aspect 'A\(value.prefix(32))' is not a ratio of two integers")
                }
                pixelAspect = parts[0] > 0 && parts[1] > 0 ? Double(parts[0]) / Double(parts[1]) : 1
            case "I":
                continue
            default:
                throw .corrupt(format: Self.format, reason: "unknown header parameter '\(token.prefix(32))'")
            }
        }
        guard let width, let height else {
            throw .corrupt(format: Self.format, reason: "the header lacks a positive width (W) or height (H)")
        }
        guard let frameRate else { throw .corrupt(format: Self.format, reason: "the header has no frame rate (F)") }
        try FrameLimits.validate(width: width, height: height, frameRate: frameRate)
        (self.width, self.height, self.frameRate, self.chroma, self.fullRange) = (width, height, frameRate, chroma, fullRange)
        self.pixelAspect = pixelAspect
    }

    /// Bytes of one frame's planes (Y, then U and V, then alpha for `444alpha`).
    public var frameByteCount: Int {
        let chromaSize = chroma.chromaSize(width: width, height: height)
        return width * height * (chroma == .yuv444alpha ? 2 : 1) + 2 * chromaSize.width * chromaSize.height
    }
}
