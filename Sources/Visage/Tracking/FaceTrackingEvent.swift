/// What a ``FaceTracker`` reports as frames go by.
public struct FaceTrackingEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// At least one face has been in view for the debounce duration.
        case faceDetected
        /// No face has been in view for the debounce duration.
        case noFaceDetected
        /// A tracked face closed an eye, or both in the same frame.
        case blink(Eye)
        /// A tracked face nodded (yes): an oscillation of pitch, two alike full swings after the first (``HeadGestureDetector``).
        case nod(HeadGesture)
        /// A tracked face shook its head (no): the same of yaw.
        case shake(HeadGesture)
        /// A face (with `trackingID`), or anyone (without), has watched the camera for the minimum
        /// duration (``AttentionOptions``).
        case attentionGained
        /// A face (with `trackingID`), or everyone (without), has not watched the camera for the minimum
        /// duration: turned away, looking elsewhere, or gone.
        case attentionLost
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
    /// The face that blinked, nodded, shook, gained or lost attention; nil for presence and for anyone's attention.
    public var trackingID: Int?

    public init(kind: Kind, time: Double, frameIndex: Int, trackingID: Int? = nil) {
        (self.kind, self.time, self.frameIndex, self.trackingID) = (kind, time, frameIndex, trackingID)
    }
}
