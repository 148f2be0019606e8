/// What a ``FaceTracker`` reports as frames go by.
public struct FaceTrackingEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// At least one face has been in view for the debounce duration.
        case faceDetected
        /// No face has been in view for the debounce duration.
        case noFaceDetected
        /// A tracked face closed an eye, or both in the same frame.
        case blink(Eye)
        /// A tracked face nodded (yes): two reversals of pitch in a row (``HeadGestureDetector``).
        case nod(HeadGesture)
        /// A tracked face shook its head (no): two reversals of yaw in a row.
        case shake(HeadGesture)
    }

    /// Which eye blinked: the subject's own, unless the tracker's `mirrored` option is on (see
    /// ``FaceEventGenerator``).
    public enum Eye: String, Sendable, Hashable, Codable {
        case left, right, both
    }

    public var kind: Kind
    /// Media time of the frame that completed the event, seconds.
    public var time: Double
    /// Index of that frame.
    public var frameIndex: Int
    /// The face that blinked, nodded or shook; nil for presence events.
    public var trackingID: Int?

    public init(kind: Kind, time: Double, frameIndex: Int, trackingID: Int? = nil) {
        (self.kind, self.time, self.frameIndex, self.trackingID) = (kind, time, frameIndex, trackingID)
    }
}
