import Foundation
import VisageModels

/// Gaze from a face mesh and its fitted head pose: a geometric eye model, no network.
///
/// Method, per eye:
/// 1. The eyeball's centre is fixed in face space (``EyeballModel``: behind the middle of the canonical
///    eye opening by the radius) and moved into the camera frame by the head pose (``HeadPose/transform``,
///    whose scale also scales the 1.2 cm radius). Then the two eyes are placed against each other by
///    the mesh's own eye openings: the middle of each opening in the picture (the mean of its 16 lid
///    points) and that of the posed canonical opening, taken alike, are carried along the camera's
///    rays to the plane through the posed opening parallel to the face, and their offset in the face's
///    x–y plane is measured. The two eyes' offsets less their mean move each eyeball centre; their mean
///    is left to the pose. So the person's own eye spacing replaces the canonical face's (else eyes
///    4 mm further apart each read about 10° outwards), and a roll or tilt of the fitted pose no longer
///    puts one eyeball higher than the other (eyes turn together vertically, yet 1 mm is 5° of pitch),
///    while the line of sight of both eyes together hardly changes.
/// 2. The iris centre is the mesh's iris point (468, 473). Its picture position defines a ray from
///    MediaPipe's virtual camera (63° vertical field of view, as the pose fit uses); the iris is where
///    that ray first meets the eyeball's sphere. A ray that misses the sphere (a noisy iris past the
///    eyeball's silhouette) takes the sphere's point nearest to it.
/// 3. The line of sight runs from the eyeball's centre through the iris.
///
/// Only the iris's position in the picture is used, not the mesh's iris depth. Person-independent
/// constants (radius, where the centre sits) bias the angles of any one person by a few degrees; the
/// tests measure what they can (README, "Gaze").
public struct GazeEstimator: Sendable {
    public let model: EyeballModel
    /// The half-angle (degrees) between the line of sight and the direction of the camera at which
    /// ``FaceGaze/lookingAtCamera`` is ½: real subjects looking into the lens come out 8–12° off
    /// (README, "Gaze"), so the cone is wider than that bias.
    public static let cameraConeHalfAngle = 15.0
    /// How many degrees turn ``FaceGaze/lookingAtCamera`` from ½ to about 0.73 (logistic scale).
    public static let cameraConeSoftness = 3.0

    public init(model: EyeballModel) {
        self.model = model
    }

    public init(metadata: FaceGeometryMetadata) {
        self.init(model: EyeballModel(canonicalVertices: metadata.canonicalVertices))
    }

    /// The estimator of the bundled canonical face; nil when its file cannot be read.
    public static let bundled: GazeEstimator? = {
        guard let data = try? BundledModel.faceGeometry.load(), let metadata = try? FaceGeometryMetadata(data: data) else { return nil }
        return GazeEstimator(metadata: metadata)
    }()

    /// Where the face of `mesh`, posed as `pose`, looks; nil when the mesh has no irises (fewer than 478
    /// points), an iris or eye-opening point is not finite, the face is seen edge-on, or the pose has no rotation.
    public func gaze(mesh: FaceMesh, pose: HeadPose) -> FaceGaze? {
        guard mesh.points.count >= FaceMesh.pointCount, mesh.imageWidth > 0, mesh.imageHeight > 0 else { return nil }
        let m = pose.transform
        let columns = (0..<3).map { c in SIMD3(m[c], m[4 + c], m[8 + c]) }
        let scale = columns.map { ($0 * $0).sum().squareRoot() }
        guard scale.allSatisfy({ $0.isFinite && $0 > 0 }) else { return nil }
        // R as its columns (face axes in the camera frame), and the mean scale.
        let axes = zip(columns, scale).map { $0 / $1 }
        let s = scale.reduce(0, +) / 3
        let translation = SIMD3(m[3], m[7], m[11])
        func toCamera(_ p: SIMD3<Double>) -> SIMD3<Double> { s * (axes[0] * p.x + axes[1] * p.y + axes[2] * p.z) + translation }
        func toFace(_ d: SIMD3<Double>) -> SIMD3<Double> { SIMD3((axes[0] * d).sum(), (axes[1] * d).sum(), (axes[2] * d).sum()) }

        let heightAtNear = 2 * FaceGeometry.near * tan(FaceGeometry.verticalFieldOfView * .pi / 360)
        let widthAtNear = Double(mesh.imageWidth) * heightAtNear / Double(mesh.imageHeight)
        let radius = EyeballModel.eyeballRadius * s

        // Where the mesh's eye opening lies against the posed canonical one: face-space centimetres in
        // the face's x–y plane; nil when a lid point is not finite or the face is seen edge-on. Both
        // middles are taken the same way, as the mean of the 16 points in the picture (on the near
        // plane), so a mesh that is the posed canonical face gives exactly 0.
        func openingOffset(_ indices: EyeballModel.Eye, canonical: [SIMD3<Double>]) -> SIMD3<Double>? {
            var seen = SIMD3<Double>(0, 0, 0), posed = SIMD3<Double>(0, 0, 0), middle = SIMD3<Double>(0, 0, 0)
            for (index, vertex) in zip(indices.opening, canonical) {
                let point = mesh.points[index]
                let p = toCamera(vertex)
                guard point.x.isFinite, point.y.isFinite, p.z < 0 else { return nil }
                seen += SIMD3((Double(point.x) - 0.5) * widthAtNear, (0.5 - Double(point.y)) * heightAtNear, -FaceGeometry.near)
                posed += p * (FaceGeometry.near / -p.z)
                middle += p
            }
            // Each ray's point on the plane through the posed opening's middle, parallel to the face.
            let normal = axes[2], anchor = (normal * middle).sum() / Double(canonical.count)
            let (a, b) = ((normal * seen).sum(), (normal * posed).sum())
            guard abs(a) > 1e-9 * (seen * seen).sum().squareRoot(), abs(b) > 1e-9 * (posed * posed).sum().squareRoot() else { return nil }
            let offset = toFace(seen * (anchor / a) - posed * (anchor / b)) / s
            return SIMD3(offset.x, offset.y, 0)
        }
        guard let leftOffset = openingOffset(EyeballModel.leftEye, canonical: model.leftOpening),
              let rightOffset = openingOffset(EyeballModel.rightEye, canonical: model.rightOpening)
        else { return nil }
        let apart = (leftOffset - rightOffset) / 2

        func eye(_ indices: EyeballModel.Eye, faceCentre: SIMD3<Double>) -> (gaze: EyeGaze, faceDirection: SIMD3<Double>)? {
            let point = mesh.points[indices.iris]
            guard point.x.isFinite, point.y.isFinite else { return nil }
            let ray = normalized(SIMD3((Double(point.x) - 0.5) * widthAtNear, (0.5 - Double(point.y)) * heightAtNear, -FaceGeometry.near))
            let centre = toCamera(faceCentre)
            let along = (ray * centre).sum()
            let discriminant = along * along - ((centre * centre).sum() - radius * radius)
            let iris = discriminant >= 0
                ? ray * (along - discriminant.squareRoot())
                : centre + radius * normalized(ray * along - centre)
            let direction = normalized(iris - centre)
            let faceDirection = toFace(direction)
            let angles = Self.angles(direction)
            let gaze = EyeGaze(
                origin: centre / 100, direction: direction, yaw: angles.yaw, pitch: angles.pitch,
                transform: Self.eyeTransform(looking: faceDirection, at: faceCentre / 100))
            return (gaze, faceDirection)
        }
        guard let left = eye(EyeballModel.leftEye, faceCentre: model.leftCentre + apart),
              let right = eye(EyeballModel.rightEye, faceCentre: model.rightCentre - apart)
        else { return nil }

        let origin = (left.gaze.origin + right.gaze.origin) / 2
        let direction = normalized(left.gaze.direction + right.gaze.direction)
        let toCameraDirection = normalized(-origin)
        let cosine = max(-1, min(1, (direction * toCameraDirection).sum()))
        let angleFromCamera = acos(cosine) * 180 / .pi
        let faceOrigin = (model.leftCentre + model.rightCentre) / 200
        let distance = (origin * origin).sum().squareRoot()
        let angles = Self.angles(direction)
        return FaceGaze(
            left: left.gaze, right: right.gaze, origin: origin, direction: direction, yaw: angles.yaw, pitch: angles.pitch,
            lookAtPoint: faceOrigin + distance * normalized(left.faceDirection + right.faceDirection),
            angleFromCamera: angleFromCamera,
            lookingAtCamera: 1 / (1 + exp((angleFromCamera - Self.cameraConeHalfAngle) / Self.cameraConeSoftness)))
    }

    /// Yaw (towards +x) and pitch (towards +y) of a unit direction, degrees; 0 along +z.
    static func angles(_ d: SIMD3<Double>) -> (yaw: Double, pitch: Double) {
        (atan2(d.x, d.z) * 180 / .pi, asin(max(-1, min(1, d.y))) * 180 / .pi)
    }

    /// A rotation taking +z to `direction` with its x axis horizontal (Ry(yaw) · Rx(−pitch)), placed at
    /// `origin`: row-major 4×4.
    static func eyeTransform(looking direction: SIMD3<Double>, at origin: SIMD3<Double>) -> [Double] {
        let z = direction
        let horizontal = (z.x * z.x + z.z * z.z).squareRoot()
        // Straight up or down has no yaw: keep x along the face's x.
        let x = horizontal > 1e-9 ? SIMD3(z.z / horizontal, 0, -z.x / horizontal) : SIMD3(1, 0, 0)
        let y = SIMD3(z.y * x.z - z.z * x.y, z.z * x.x - z.x * x.z, z.x * x.y - z.y * x.x)
        return [x.x, y.x, z.x, origin.x, x.y, y.y, z.y, origin.y, x.z, y.z, z.z, origin.z, 0, 0, 0, 1]
    }
}

private func normalized(_ v: SIMD3<Double>) -> SIMD3<Double> {
    let length = (v * v).sum().squareRoot()
    return length > 0 ? v / length : v
}

extension FaceAnalysis {
    /// Where this face looks (``GazeEstimator``, with the bundled canonical face); nil when it cannot be
    /// estimated. Computed on each access from ``mesh`` and ``pose``: a few vector operations.
    public var gaze: FaceGaze? {
        GazeEstimator.bundled?.gaze(mesh: mesh, pose: pose)
    }
}
