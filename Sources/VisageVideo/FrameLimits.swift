/// The largest frames a source accepts, checked before any frame memory is allocated, so a hostile
/// header cannot ask for gigabytes.
public enum FrameLimits {
    /// Longest side in pixels (8K video is 7680).
    public static let maximumDimension = 16_384
    /// Most pixels in a frame.
    public static let maximumPixelCount = 64 << 20

    /// Checks a frame size and frame rate given by a header or a caller.
    static func validate(width: Int, height: Int, frameRate: Double) throws(VideoError) {
        for (name, value) in [("width", width), ("height", height)] where !(1...maximumDimension).contains(value) {
            throw .invalidParameter(name: "frame \(name)", value: "\(value)", rule: "must be in 1…\(maximumDimension)")
        }
        guard width * height <= maximumPixelCount else {
            throw .invalidParameter(
                name: "frame size", value: "\(width)×\(height)", rule: "must have at most \(maximumPixelCount) pixels")
        }
        guard frameRate.isFinite, frameRate > 0, frameRate <= 10_000 else {
            throw .invalidParameter(name: "frame rate", value: "\(frameRate)", rule: "must be a number of frames per second in (0, 10000]")
        }
    }
}
