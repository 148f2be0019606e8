/// ARKit's `ARFrame`, reduced to what face code reads without a camera image: the media time and the
/// anchors. (`capturedImage`, a `CVPixelBuffer`, does not exist on Linux.)
public final class ARFrame: Sendable {
    /// Media time of the frame, seconds from the start of the input.
    public let timestamp: TimeInterval
    /// Every anchor of the session after this frame, tracked or not.
    public let anchors: [ARAnchor]

    init(timestamp: TimeInterval, anchors: [ARAnchor]) {
        (self.timestamp, self.anchors) = (timestamp, anchors)
    }
}
