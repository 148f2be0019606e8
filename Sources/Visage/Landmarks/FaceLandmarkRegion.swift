import Foundation
import VisageGeometry

/// One facial feature traced by points, as Vision's `FaceObservation.Landmarks2D.Region`.
///
/// Points are normalized to the face's bounding box with the origin at its lower left, as Vision's: (0, 0)
/// is the box's bottom-left corner and (1, 1) its top-right. Points of the mesh outside the box fall
/// outside 0…1. ``pointsInImage(imageSize:origin:)`` gives them in pixels of the upright picture.
public struct FaceLandmarkRegion: Sendable, Hashable {
    /// How the points connect.
    public enum PointsClassification: Sendable, Hashable {
        /// Separate points (pupils, allPoints).
        case disconnected
        /// A curve from the first point to the last.
        case openPath
        /// A loop: the last point connects back to the first.
        case closedPath
    }

    public let points: [NormalizedPoint]
    public let pointsClassification: PointsClassification
    /// The face box the points are normalized to, itself normalized to the picture (origin lower left).
    public let boundingBox: NormalizedRect
    /// The face-mesh points each point comes from (MediaPipe's canonical mesh indices).
    public let meshIndices: [Int]

    public var pointCount: Int { points.count }

    init(mesh: FaceMesh, indices: [Int], classification: PointsClassification, boundingBox: NormalizedRect) {
        meshIndices = indices
        pointsClassification = classification
        self.boundingBox = boundingBox
        points = indices.map { index in
            let x = Double(mesh.points[index].x), y = 1 - Double(mesh.points[index].y)
            return NormalizedPoint(x: (x - boundingBox.minX) / boundingBox.width, y: (y - boundingBox.minY) / boundingBox.height)
        }
    }

    /// The points in pixels of the upright picture of `imageSize`, measured from `origin`: by default the
    /// lower left, as Vision's `pointsInImage(imageSize:)` and every other conversion in Visage.
    public func pointsInImage(imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) -> [CGPoint] {
        points.map { point in
            NormalizedPoint(x: boundingBox.minX + point.x * boundingBox.width, y: boundingBox.minY + point.y * boundingBox.height)
                .toImageCoordinates(imageSize, origin: origin)
        }
    }
}
