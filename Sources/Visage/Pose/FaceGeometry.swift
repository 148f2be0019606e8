import Foundation

/// Fits MediaPipe's canonical face to a mesh: the head pose of MediaPipe's face geometry pipeline
/// (`geometry_pipeline.cc`, `ScreenToMetricSpaceConverter`) with its default environment.
///
/// The normalized mesh points are placed on the near plane of a virtual perspective camera (63° vertical
/// field of view, near plane 1, origin of the picture at the top left); a weighted Procrustes fit of the
/// canonical face to them gives a first scale, which turns their relative depth into distances to unproject
/// them; a second fit refines the scale; the points unprojected with both scales are fitted once more and
/// that fit is the pose. Only the 468 surface points take part, weighted as the metadata's basis says.
public struct FaceGeometry: Sendable {
    public let metadata: FaceGeometryMetadata
    /// The virtual camera's vertical field of view in degrees and near-plane distance (MediaPipe's defaults).
    public static let verticalFieldOfView = 63.0
    public static let near = 1.0

    /// The basis's canonical vertices, landmark indices and weights, gathered once per model rather than per fit.
    private let basisSource: [SIMD3<Double>]
    private let basisIndices: [Int]
    private let basisWeights: [Double]

    public init(metadata: FaceGeometryMetadata) {
        self.metadata = metadata
        basisSource = metadata.basis.map { metadata.canonicalVertices[$0.index] }
        basisIndices = metadata.basis.map(\.index)
        basisWeights = metadata.basis.map(\.weight)
    }

    /// The head pose for `mesh`.
    ///
    /// - Throws: ``FaceGeometryError`` when the mesh has fewer points than the canonical face, a point is
    ///   not finite, the image has no area, or the points are too compact to fit (MediaPipe skips faces
    ///   whose points lie within 0.001 of their centre).
    public func pose(for mesh: FaceMesh) throws(FaceGeometryError) -> HeadPose {
        let count = metadata.canonicalVertices.count
        guard mesh.points.count >= count else { throw .meshSize(count: mesh.points.count, expected: count) }
        guard mesh.imageWidth > 0, mesh.imageHeight > 0 else {
            throw .degenerateLandmarks(reason: "image is \(mesh.imageWidth)×\(mesh.imageHeight) pixels")
        }
        var screen = [SIMD3<Double>]()
        screen.reserveCapacity(count)
        for point in mesh.points.prefix(count) {
            guard point.x.isFinite, point.y.isFinite, point.z.isFinite else {
                throw .degenerateLandmarks(reason: "a landmark is not finite")
            }
            screen.append(SIMD3(Double(point.x), Double(point.y), Double(point.z)))
        }
        let centre = screen.reduce(SIMD3<Double>(repeating: 0), +) / Double(count)
        var spread = 0.0
        for point in screen {
            let dx = point.x - centre.x, dy = point.y - centre.y
            spread = max(spread, (dx * dx + dy * dy).squareRoot())
        }
        guard spread > 1e-3 else { throw .degenerateLandmarks(reason: "landmarks lie within \(spread) of their centre") }

        // The near plane's rectangle for this picture's aspect ratio.
        let heightAtNear = 2 * Self.near * tan(Self.verticalFieldOfView * .pi / 360)
        let widthAtNear = Double(mesh.imageWidth) * heightAtNear / Double(mesh.imageHeight)
        // Project onto the near plane: y flipped to point up, z on the scale of x.
        let projected = screen.map {
            SIMD3(($0.x - 0.5) * widthAtNear, (0.5 - $0.y) * heightAtNear, $0.z * widthAtNear)
        }
        let depthOffset = projected.reduce(0) { $0 + $1.z } / Double(count)

        // Only the basis's points take part in the fits.
        let basisPoints = basisIndices.map { projected[$0] }
        let firstScale = try fit(basisPoints.map { SIMD3($0.x, $0.y, -$0.z) }).scale
        let secondScale = try fit(unproject(basisPoints, depthOffset: depthOffset, scale: firstScale)).scale
        let metric = unproject(basisPoints, depthOffset: depthOffset, scale: firstScale * secondScale)
        return HeadPose(transform: try fit(metric).matrix)
    }

    /// Moves points from the near plane to the depth their relative z implies at `scale`, then into the
    /// right-handed metric frame (z towards the viewer).
    private func unproject(_ points: [SIMD3<Double>], depthOffset: Double, scale: Double) -> [SIMD3<Double>] {
        points.map {
            let z = ($0.z - depthOffset + Self.near) / scale
            return SIMD3($0.x * z / Self.near, $0.y * z / Self.near, -z)
        }
    }

    /// Fits the canonical face to `targets`, the basis's points in its order.
    private func fit(_ targets: [SIMD3<Double>]) throws(FaceGeometryError) -> WeightedProcrustes.Solution {
        let solution = WeightedProcrustes.solve(source: basisSource, target: targets, weights: basisWeights)
        guard let solution, solution.scale.isFinite, solution.scale > 0 else {
            throw .degenerateLandmarks(reason: "the canonical face cannot be fitted to these landmarks")
        }
        return solution
    }
}
