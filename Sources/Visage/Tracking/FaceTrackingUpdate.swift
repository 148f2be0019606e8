/// What ``FaceTracker`` learnt from one frame: its tracked faces and the events it completed.
public struct FaceTrackingUpdate: Sendable {
    public var frameIndex: Int
    public var time: Double
    /// The faces reported at this frame, with the IDs events use; none while presence is not confirmed.
    public var faces: [TrackedFace]
    public var events: [FaceTrackingEvent]
}
