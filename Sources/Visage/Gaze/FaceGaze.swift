/// Where one eye looks.
///
/// The camera frame is ``HeadPose``'s: MediaPipe's virtual camera at the origin, x to the picture's
/// right, y up, z towards the viewer (the camera looks down −z). Face space is ARKit's face anchor's:
/// the canonical face's frame, x towards the subject's left, y up, z out of the face. Positions are in
/// metres, as ARKit's; like the head pose's translation they assume the virtual camera's 63° field of
/// view, so they are estimates, while directions and angles do not depend on it much.
public struct EyeGaze: Sendable, Hashable, Codable {
    /// The eyeball's centre in the camera frame, metres.
    public var origin: SIMD3<Double>
    /// Unit vector along the line of sight, camera frame.
    public var direction: SIMD3<Double>
    /// Degrees: positive when the eye looks towards the picture's right; 0 when the line of sight is
    /// parallel to the camera's axis (towards the camera's plane).
    public var yaw: Double
    /// Degrees: positive when the eye looks up.
    public var pitch: Double
    /// ARKit's `leftEyeTransform`/`rightEyeTransform`: origin at the eyeball's centre, +z along the line of
    /// sight, +x kept horizontal in face space; relative to the face (face space), metres. Row-major 4×4.
    public var transform: [Double]

    public init(origin: SIMD3<Double>, direction: SIMD3<Double>, yaw: Double, pitch: Double, transform: [Double]) {
        (self.origin, self.direction, self.yaw, self.pitch, self.transform) = (origin, direction, yaw, pitch, transform)
    }
}

/// Where a face looks: both eyes, their combination, ARKit's look-at point and whether it is the camera.
/// Made by ``GazeEstimator`` (see there for the method).
public struct FaceGaze: Sendable, Hashable, Codable {
    /// The subject's own left and right eyes.
    public var left: EyeGaze
    public var right: EyeGaze
    /// The midpoint of the eyeball centres, camera frame, metres.
    public var origin: SIMD3<Double>
    /// The normalized mean of the two lines of sight, camera frame.
    public var direction: SIMD3<Double>
    /// ``direction``'s yaw and pitch, degrees, signed as ``EyeGaze``'s.
    public var yaw: Double
    public var pitch: Double
    /// ARKit's `lookAtPoint`: face space, metres; the point along the combined line of sight as far from
    /// the eyes as the camera is. +x when the subject looks towards their own left, +y when up.
    public var lookAtPoint: SIMD3<Double>
    /// Degrees between the combined line of sight and the line from the eyes to the camera.
    public var angleFromCamera: Double
    /// How likely the face looks into the camera, 0…1: a logistic of ``angleFromCamera``, ½ at
    /// ``GazeEstimator/cameraConeHalfAngle``.
    public var lookingAtCamera: Double

    public init(
        left: EyeGaze, right: EyeGaze, origin: SIMD3<Double>, direction: SIMD3<Double>, yaw: Double, pitch: Double,
        lookAtPoint: SIMD3<Double>, angleFromCamera: Double, lookingAtCamera: Double
    ) {
        (self.left, self.right, self.origin, self.direction, self.yaw, self.pitch) = (left, right, origin, direction, yaw, pitch)
        (self.lookAtPoint, self.angleFromCamera, self.lookingAtCamera) = (lookAtPoint, angleFromCamera, lookingAtCamera)
    }
}
