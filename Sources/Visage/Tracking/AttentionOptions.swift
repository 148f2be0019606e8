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
    /// Smallest lid aperture, in iris diameters, of the more open eye (``EyeOpenness/larger``); nil to
    /// ignore the lids. Eyes shut, or looking down (the upper lid follows the eye down), are not
    /// watching, even where the mesh's iris points read within the gaze cone: lowered lids cover the
    /// tops of the irises and the mesh puts them level. 0.5 by default: on real clips the eyes of people
    /// looking into the lens read 0.66–0.80 at the 10th percentile per clip, eyes looking down through
    /// lowered lids 0.29–0.39 and shut ones about 0.1 (README, "Attention on footage"). Eyes count as
    /// shut or lowered only once under it for ``blinkTolerance``, so a blink changes nothing.
    public var eyeOpenness: Double?
    /// How long, media seconds, watching or not watching must last before it is reported.
    public var minimumDuration: Double

    /// How long, media seconds, the eyes may stay under ``eyeOpenness`` and still count as open: longer
    /// than a blink keeps them under it (0.03–0.1 s on the real clips; a blink's closure lasts about
    /// 0.1–0.2 s), short enough that eyes lowered to a phone lose attention within ``minimumDuration``
    /// plus 0.3 s. Between frames a blink otherwise restarts the wait for attention to be gained.
    public static let blinkTolerance = 0.25

    public init(gazeCone: Double? = 22, headCone: Double? = 30, eyeOpenness: Double? = 0.5, minimumDuration: Double = 0.5) {
        (self.gazeCone, self.headCone, self.eyeOpenness, self.minimumDuration) = (gazeCone, headCone, eyeOpenness, minimumDuration)
    }

    /// Whether a face whose head points `headAngle` degrees and whose eyes look `gazeAngle` degrees away
    /// from the camera, its more open eye open `eyeOpenness` iris diameters, watches; NaN (unknown) never
    /// does for a condition that is on.
    public func isWatching(headAngle: Double, gazeAngle: Double, eyeOpenness: Double) -> Bool {
        if let headCone, !(headAngle <= headCone) { return false }
        if let gazeCone, !(gazeAngle <= gazeCone) { return false }
        if let minimum = self.eyeOpenness, !(eyeOpenness >= minimum) { return false }
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
