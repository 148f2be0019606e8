package import Visage
internal import VisageModels

/// ARKit's face geometry from one face's mesh analysis: the anchor transform from the fitted head pose,
/// the eye transforms and the look-at point from the irises.
///
/// Method (approximate; ARKit measures eyes with its depth camera):
/// 1. Each eyeball's centre is fixed in face space: the midpoint of the canonical face's two corners of
///    that eye (mesh points 33/133, 263/362), 1 cm further into the head (−z).
/// 2. Each eye's gaze comes from its iris centre in the picture (mesh 468 and 473). The offset of the
///    iris from the eye's centre is measured along the eye's own axes: horizontally from the midpoint of
///    the corners along the corner-to-corner line (towards the subject's left), vertically from the
///    midpoint of the upper and lower lid (159/145, 386/374) along its perpendicular (up). Both are in
///    units of half the corner-to-corner distance. With eyes 3 cm wide and an eyeball radius of 1.2 cm, an
///    offset `o` is a rotation of `asin(1.25·o)` (clamped to ±90°): yaw about the face's y axis (positive
///    towards the subject's left), then pitch about its x axis (positive up).
/// 3. `lookAtPoint` starts between the eyeball centres and follows the mean of the two gaze directions
///    for the face's distance from the camera, so a subject looking into the lens gives a point near the
///    camera.
package struct FaceAnchorGeometry: Sendable {
    /// Eyeball centres in face space, metres.
    package let leftEyeCentre: SIMD3<Float>
    package let rightEyeCentre: SIMD3<Float>

    static let eyeballDepth: Float = 0.01
    /// Half an eye's corner-to-corner width over the eyeball's radius (1.5 cm / 1.2 cm).
    static let gazeGain: Float = 1.25

    /// Mesh indices of one eye: the corner on the subject's right, the one on their left, upper and
    /// lower lid, iris centre.
    package struct EyeIndices: Sendable {
        package let towardsRight: Int, towardsLeft: Int, upperLid: Int, lowerLid: Int, iris: Int
    }

    package static let leftEye = EyeIndices(towardsRight: 362, towardsLeft: 263, upperLid: 386, lowerLid: 374, iris: 473)
    package static let rightEye = EyeIndices(towardsRight: 33, towardsLeft: 133, upperLid: 159, lowerLid: 145, iris: 468)

    /// From the canonical face's vertices (centimetres).
    init(canonicalVertices v: [SIMD3<Double>]) {
        func centre(_ eye: EyeIndices) -> SIMD3<Float> {
            let mid = (v[eye.towardsRight] + v[eye.towardsLeft]) / 2 / 100
            return SIMD3(Float(mid.x), Float(mid.y), Float(mid.z) - Self.eyeballDepth)
        }
        leftEyeCentre = centre(Self.leftEye)
        rightEyeCentre = centre(Self.rightEye)
    }

    /// The canonical face of the bundled geometry metadata, loaded once.
    package static let shared: Result<FaceAnchorGeometry, ARError> = {
        do {
            let metadata = try FaceGeometryMetadata(data: BundledModel.faceGeometry.load())
            return .success(FaceAnchorGeometry(canonicalVertices: metadata.canonicalVertices))
        } catch {
            return .failure(ARError(.sensorFailed, reason: "the canonical face model cannot be loaded: \(error)", underlying: error))
        }
    }()

    /// The anchor transform: the head pose's rotation without its scale, translation in metres.
    package static func anchorTransform(_ pose: HeadPose) -> simd_float4x4 {
        let m = pose.transform
        var columns: [SIMD4<Float>] = []
        for column in 0..<3 {
            let c = SIMD3(m[column], m[4 + column], m[8 + column])
            let unit = c / (c * c).sum().squareRoot()
            columns.append(SIMD4(Float(unit.x), Float(unit.y), Float(unit.z), 0))
        }
        columns.append(SIMD4(Float(m[3] / 100), Float(m[7] / 100), Float(m[11] / 100), 1))
        return simd_float4x4(columns)
    }

    /// Yaw and pitch of one eye's gaze, radians, in face space.
    package static func gaze(_ eye: EyeIndices, in mesh: FaceMesh) -> (yaw: Float, pitch: Float) {
        let a = mesh.pixel(eye.towardsRight), b = mesh.pixel(eye.towardsLeft)
        let across = b - a
        let width = (across * across).sum().squareRoot()
        guard width > 0 else { return (0, 0) }
        let axis = across / width
        // Up in the picture (y grows downwards) perpendicular to the eye's axis.
        let up = SIMD2(axis.y, -axis.x)
        let iris = mesh.pixel(eye.iris)
        let lids = (mesh.pixel(eye.upperLid) + mesh.pixel(eye.lowerLid)) / 2
        let half = width / 2
        let horizontal = ((iris - (a + b) / 2) * axis).sum() / half
        let vertical = ((iris - lids) * up).sum() / half
        func angle(_ offset: Double) -> Float { asin(max(-1, min(1, gazeGain * Float(offset)))) }
        return (angle(horizontal), angle(vertical))
    }

    /// The direction a gaze of `yaw` and `pitch` looks along: Ry(yaw) · Rx(−pitch) applied to +z.
    package static func rotation(yaw: Float, pitch: Float) -> simd_float4x4 {
        let (sy, cy, sp, cp) = (sin(yaw), cos(yaw), sin(pitch), cos(pitch))
        // Columns: the rotated x, y and z axes.
        return simd_float4x4(
            SIMD4(cy, 0, -sy, 0), SIMD4(-sy * sp, cp, -cy * sp, 0), SIMD4(sy * cp, sp, cy * cp, 0), SIMD4(0, 0, 0, 1))
    }

    /// The eye transforms and look-at point of `analysis`.
    package func eyes(_ analysis: FaceAnalysis, faceDistance: Float) -> (left: simd_float4x4, right: simd_float4x4, lookAt: SIMD3<Float>) {
        func transform(_ indices: EyeIndices, _ centre: SIMD3<Float>) -> (simd_float4x4, SIMD3<Float>) {
            let g = Self.gaze(indices, in: analysis.mesh)
            var m = Self.rotation(yaw: g.yaw, pitch: g.pitch)
            m.columns.3 = SIMD4(centre.x, centre.y, centre.z, 1)
            return (m, SIMD3(m.columns.2.x, m.columns.2.y, m.columns.2.z))
        }
        let (left, leftDirection) = transform(Self.leftEye, leftEyeCentre)
        let (right, rightDirection) = transform(Self.rightEye, rightEyeCentre)
        let direction = (leftDirection + rightDirection) / 2
        let length = (direction * direction).sum().squareRoot()
        let unit = length > 0 ? direction / length : SIMD3(0, 0, 1)
        let start = (leftEyeCentre + rightEyeCentre) / 2
        return (left, right, start + unit * faceDistance)
    }
}
