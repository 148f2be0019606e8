import Foundation

/// A face followed from frame to frame: its tracking ID and everything the mesh stage learnt about it
/// in the current frame.
public struct TrackedFace: Sendable, Hashable {
    /// ML Kit's `trackingID`: the same while the face stays in view; a face that leaves and comes back
    /// gets a new one.
    public var trackingID: Int
    /// The box around the face mesh's surface points, pixels of the upright picture, origin top left.
    public var frame: CGRect
    public var analysis: FaceAnalysis
    /// Whether this face has attention: the state of its last `attentionGained`/`attentionLost` event
    /// (``FaceTracker``), false before any.
    public var hasAttention: Bool

    public init(trackingID: Int, frame: CGRect, analysis: FaceAnalysis, hasAttention: Bool = false) {
        self.trackingID = trackingID
        self.frame = frame
        self.analysis = analysis
        self.hasAttention = hasAttention
    }

    /// The subject's left-eye blink coefficient as the picture shows it (0 open … 1 closed).
    public var eyeBlinkLeft: Float { analysis.blendshapes[.eyeBlinkLeft] }
    /// The subject's right-eye blink coefficient as the picture shows it.
    public var eyeBlinkRight: Float { analysis.blendshapes[.eyeBlinkRight] }
}
