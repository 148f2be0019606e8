/// The memory layout of one pixel: 8 bits per channel, channels interleaved in the named order.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case rgb8
    case rgba8
    /// Blue, green, red, alpha: the layout of most camera frames and `CVPixelBuffer`s.
    case bgra8
    case gray8

    public var bytesPerPixel: Int {
        switch self {
        case .rgb8: 3
        case .rgba8, .bgra8: 4
        case .gray8: 1
        }
    }

    public var hasAlpha: Bool { self == .rgba8 || self == .bgra8 }

    /// Byte offsets of red, green and blue inside a pixel. For `gray8` all three are 0.
    public var rgbOffsets: (red: Int, green: Int, blue: Int) {
        switch self {
        case .rgb8, .rgba8: (0, 1, 2)
        case .bgra8: (2, 1, 0)
        case .gray8: (0, 0, 0)
        }
    }

    /// Byte offset of alpha inside a pixel, nil when the format has none.
    public var alphaOffset: Int? { hasAlpha ? 3 : nil }

    public var description: String { rawValue }
}
