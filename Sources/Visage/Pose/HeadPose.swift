import Foundation

/// Where a head points: the canonical face model's fitted 4×4 transform and its roll, yaw and pitch.
///
/// The transform maps the canonical face (centimetres) into MediaPipe's virtual camera space: x to the
/// picture's right, y up, z towards the viewer, camera at the origin looking down −z with a 63° vertical
/// field of view. It is MediaPipe's `facialTransformationMatrixes` entry, row-major, translation in the
/// last column.
///
/// The angles decompose its rotation as R = Rz(roll) · Ry(yaw) · Rx(−pitch) and use the project's
/// (and ML Kit's) signs: `roll` positive when the face is turned counter-clockwise in the picture, `yaw`
/// positive when the face turns towards the picture's right, `pitch` positive when the face looks up.
public struct HeadPose: Sendable, Hashable {
    /// Row-major 4×4: `transform[4 * row + column]`.
    public var transform: [Double]
    /// Radians, as Vision reports angles.
    public var roll: Double
    public var yaw: Double
    public var pitch: Double

    /// The pose of a transform whose upper-left 3×3 is a scaled rotation (16 values, row-major).
    package init(transform: [Double]) {
        precondition(transform.count == 16, "a 4×4 transform has 16 values, got \(transform.count)")
        self.transform = transform
        // Remove the scale (the columns' common length) before reading angles.
        let scale = (0..<3).map { column in
            (0..<3).reduce(0.0) { $0 + transform[4 * $1 + column] * transform[4 * $1 + column] }.squareRoot()
        }
        func r(_ row: Int, _ column: Int) -> Double { transform[4 * row + column] / scale[column] }
        yaw = asin(max(-1, min(1, -r(2, 0))))
        pitch = -atan2(r(2, 1), r(2, 2))
        roll = atan2(r(1, 0), r(0, 0))
    }

    /// ML Kit's `headEulerAngleX`: degrees, positive when the face looks up.
    public var headEulerAngleX: Double { pitch * 180 / .pi }
    /// ML Kit's `headEulerAngleY`: degrees, positive when the face turns towards the picture's right.
    public var headEulerAngleY: Double { yaw * 180 / .pi }
    /// ML Kit's `headEulerAngleZ`: degrees, positive counter-clockwise in the picture.
    public var headEulerAngleZ: Double { roll * 180 / .pi }
}
