/// What counts as watching the camera (or the screen beside it), for ``FaceTracker``'s
/// `attentionGained` and `attentionLost` events.
///
/// A face watches in a frame when its head faces the camera within ``headCone`` and its eyes look at it
/// within ``gazeCone`` (either check off when nil); it gains or loses attention once that has held, frame
/// after frame, for ``minimumDuration`` seconds of media time. A face that turns away, or looks down at
/// a phone, loses attention while it stays present.
public struct AttentionOptions: Sendable, Hashable {
    /// Largest angle, degrees, between the combined line of sight (``FaceGaze/angleFromCamera``) and the
    /// direction of the camera; nil to ignore the eyes. 22° by default: on real clips of people looking
    /// into the lens the gaze reads 12–17° off (median per clip; the person-independent eyeball and
    /// landmark noise), while people looking up, aside or down read 29–46° (README, "Attention on footage").
    public var gazeCone: Double?
    /// Largest angle, degrees, between the direction the face points (its canonical +z) and the
    /// direction of the camera; nil to ignore the head's pose.
    public var headCone: Double?
    /// How long, media seconds, watching or not watching must last before it is reported.
    public var minimumDuration: Double

    public init(gazeCone: Double? = 22, headCone: Double? = 30, minimumDuration: Double = 0.5) {
        (self.gazeCone, self.headCone, self.minimumDuration) = (gazeCone, headCone, minimumDuration)
    }

    /// Whether a face whose head points `headAngle` degrees and whose eyes look `gazeAngle` degrees away
    /// from the camera watches; NaN (unknown) never does for a cone that is on.
    public func isWatching(headAngle: Double, gazeAngle: Double) -> Bool {
        if let headCone, !(headAngle <= headCone) { return false }
        if let gazeCone, !(gazeAngle <= gazeCone) { return false }
        return true
    }
}

extension HeadPose {
    /// Degrees between the direction the face points (the canonical face's +z, out of the face) and the
    /// direction from the face to the camera: 0 when the face turns to the camera, whatever its place
    /// in the picture. NaN when the transform has no rotation.
    public var angleFromCamera: Double {
        let m = transform
        let forward = SIMD3(m[2], m[6], m[10])
        let position = SIMD3(m[3], m[7], m[11])
        let lengths = ((forward * forward).sum() * (position * position).sum()).squareRoot()
        guard lengths > 0 else { return .nan }
        return acos(max(-1, min(1, -(forward * position).sum() / lengths))) * 180 / .pi
    }
}
