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

    /// Whether the mesh should run again in `next` after running in `current`.
    public func differs(_ next: MeshRegion, from current: MeshRegion) -> Bool {
        let shift = ((next.centerX - current.centerX) * (next.centerX - current.centerX)
            + (next.centerY - current.centerY) * (next.centerY - current.centerY)).squareRoot()
        let turn = abs(MeshRegion.normalized(next.rotation - current.rotation))
        return shift > tolerance * current.side || abs(next.side / current.side - 1) > tolerance || turn > angleTolerance
    }
}
