/// How far each eye's lids are apart, in iris diameters: the lid aperture through the middle of the
/// eye (mesh points 159–145 for the subject's right eye, 386–374 for the left) over the diameter of the
/// mesh's iris circle (twice the mean distance from the iris centre, 468 or 473, to its four ring points).
///
/// The iris is about 11.7 mm across in every adult, so the ratio does not depend on the face's size or
/// distance, and both lengths shorten alike when the head pitches. Open eyes looking into the lens read
/// 0.7–0.9 (MediaPipe's mesh and Visage's on real clips); eyes looking down read less, because the
/// upper lid follows the eye down, and shut eyes about 0.1 (README, "Attention on footage").
public struct EyeOpenness: Sendable, Hashable, Codable {
    /// The subject's own left and right eyes.
    public var left: Double
    public var right: Double

    public init(left: Double, right: Double) {
        (self.left, self.right) = (left, right)
    }

    /// The more open eye's: what ``AttentionOptions/eyeOpenness`` checks, so a wink, or one eye hidden
    /// by a hand or by a turned head, does not make the face stop watching. NaN when either is NaN.
    public var larger: Double {
        left.isNaN || right.isNaN ? .nan : max(left, right)
    }

    /// Lid and iris points of the subject's right and left eyes.
    static let rightEye = (upper: 159, lower: 145, iris: 468, ring: [469, 470, 471, 472])
    static let leftEye = (upper: 386, lower: 374, iris: 473, ring: [474, 475, 476, 477])

    /// From a 478-point mesh (in upright pixels, so a non-square picture does not distort it); nil
    /// without irises. An eye whose iris circle has no size reads NaN.
    public init?(mesh: FaceMesh) {
        guard mesh.points.count >= FaceMesh.pointCount else { return nil }
        func distance(_ a: Int, _ b: Int) -> Double {
            let d = mesh.pixel(a) - mesh.pixel(b)
            return (d * d).sum().squareRoot()
        }
        func openness(_ eye: (upper: Int, lower: Int, iris: Int, ring: [Int])) -> Double {
            let diameter = 2 * eye.ring.reduce(0) { $0 + distance($1, eye.iris) } / Double(eye.ring.count)
            guard diameter > 0 else { return .nan }
            return distance(eye.upper, eye.lower) / diameter
        }
        self.init(left: openness(Self.leftEye), right: openness(Self.rightEye))
    }
}

extension FaceAnalysis {
    /// How open this face's eyes are (``EyeOpenness``); nil when the mesh has no irises.
    public var eyeOpenness: EyeOpenness? {
        EyeOpenness(mesh: mesh)
    }
}
