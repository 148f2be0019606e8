import Foundation

/// ML Kit's classification of a face: is it smiling, are its eyes open, as probabilities in 0…1 where
/// 0.5 is a sensible threshold.
///
/// Left and right are the subject's.
///
/// Calibration. MediaPipe's coefficients are not probabilities: on the project's fixtures a broad smile
/// gives `mouthSmile` ≈ 0.9 and a neutral face ≈ 0.0, open eyes give `eyeBlink` ≈ 0.03–0.09 but painted-shut
/// eyes only ≈ 0.5 (the model under-reads blinks), so ARKit's habit of thresholding a coefficient at 0.5
/// would miss closed eyes half the time. Each probability is a logistic of a margin instead:
///
/// - smiling: σ((m − 0.4) / 0.1), m the mean of `mouthSmileLeft` and `mouthSmileRight` — 0.5 at m = 0.4,
///   0.02 for a neutral face, 0.99 for a broad smile;
/// - eye open: σ(½·[(0.25 − b) / 0.06 + (r − 0.18) / 0.03]), b the eye's `eyeBlink` coefficient and r its
///   eye aspect ratio on the mesh (Soukupová & Čech 2016: the lids' two vertical gaps over twice the corner
///   distance; ≈ 0.3 open, < 0.1 shut, 0.18 a usual blink threshold). The blendshape and the geometry each
///   give a margin in units of their spread between open and shut eyes, and the mean of the two decides, so
///   a squint (high `eyeBlink`, open lids) stays open and a shut eye the model under-reads still closes.
public struct FaceClassification: Sendable, Hashable {
    public var smilingProbability: Float
    public var leftEyeOpenProbability: Float
    public var rightEyeOpenProbability: Float

    /// The mesh points of the eye aspect ratio, as p1 (outer corner), p2, p3 (upper lid), p4 (inner
    /// corner), p5, p6 (lower lid; p2 above p6, p3 above p5).
    static let leftEyePoints = [263, 387, 385, 362, 380, 373]
    static let rightEyePoints = [33, 160, 158, 133, 153, 144]

    public init(smilingProbability: Float, leftEyeOpenProbability: Float, rightEyeOpenProbability: Float) {
        self.smilingProbability = smilingProbability
        self.leftEyeOpenProbability = leftEyeOpenProbability
        self.rightEyeOpenProbability = rightEyeOpenProbability
    }

    /// The classification of a face from its blendshapes and mesh.
    ///
    /// - Throws: ``LandmarkError/landmarkCount(_:expected:)`` when the mesh lacks surface points (the
    ///   irises are not needed).
    public init(blendshapes: FaceBlendshapes, mesh: FaceMesh) throws(LandmarkError) {
        guard mesh.points.count >= FaceMesh.surfacePointCount else {
            throw .landmarkCount(mesh.points.count, expected: FaceMesh.surfacePointCount)
        }
        let smile = Double(blendshapes[.mouthSmileLeft] + blendshapes[.mouthSmileRight]) / 2
        smilingProbability = Float(Self.logistic((smile - 0.4) / 0.1))
        leftEyeOpenProbability = Float(Self.eyeOpenProbability(
            blink: Double(blendshapes[.eyeBlinkLeft]), aspectRatio: Self.eyeAspectRatio(mesh, Self.leftEyePoints)))
        rightEyeOpenProbability = Float(Self.eyeOpenProbability(
            blink: Double(blendshapes[.eyeBlinkRight]), aspectRatio: Self.eyeAspectRatio(mesh, Self.rightEyePoints)))
    }

    /// The eye-open probability for a blink coefficient and an eye aspect ratio (see the type's notes).
    public static func eyeOpenProbability(blink: Double, aspectRatio: Double) -> Double {
        logistic(((0.25 - blink) / 0.06 + (aspectRatio - 0.18) / 0.03) / 2)
    }

    /// (|p2 − p6| + |p3 − p5|) / (2·|p1 − p4|) in pixels; 0 when the corners coincide.
    static func eyeAspectRatio(_ mesh: FaceMesh, _ indices: [Int]) -> Double {
        func distance(_ a: Int, _ b: Int) -> Double {
            let d = mesh.pixel(indices[a]) - mesh.pixel(indices[b])
            return (d * d).sum().squareRoot()
        }
        let width = distance(0, 3)
        guard width > 0, width.isFinite else { return 0 }
        return (distance(1, 5) + distance(2, 4)) / (2 * width)
    }

    static func logistic(_ x: Double) -> Double {
        x.isNaN ? 0.5 : 1 / (1 + exp(-x))
    }
}
