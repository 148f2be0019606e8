import Foundation

extension FaceAnnotation {
    /// What an annotation draws over a face besides its box, by the features asked for (the CLI's
    /// `--annotate` and the service's `/v1/annotate`): Vision's regions for `landmarks`, ML Kit's
    /// contours for `contours`, the mesh's points for `mesh`.
    package static func shapes(_ analyzed: FaceDetector.AnalyzedFace, features: FaceFeatures, imageSize: CGSize) -> [Shape] {
        guard let analysis = analyzed.analysis else { return [] }
        var shapes: [Shape] = []
        if features.contains(.landmarks) {
            let box = NormalizedRect(imageRect: analyzed.face.frame, in: imageSize, origin: .upperLeft)
            for region in FaceLandmarks2D.regionsByName(analysis.mesh, box: box).values {
                let style: Shape.Style = switch region.pointsClassification {
                case .closedPath: .closed
                case .openPath: .open
                case .disconnected: .dots
                }
                shapes.append(.init(points: region.pointsInImage(imageSize: imageSize, origin: .upperLeft), style: style))
            }
        }
        if features.contains(.contours) {
            let loops: Set<FaceContour.ContourType> = [.face, .leftEye, .rightEye]
            shapes += analyzed.face.contours.map {
                .init(points: $0.points, style: $0.points.count == 1 ? .dots : loops.contains($0.type) ? .closed : .open)
            }
        }
        if features.contains(.mesh) {
            let mesh = analysis.mesh
            shapes.append(.init(points: mesh.points.indices.map { let p = mesh.pixel($0); return CGPoint(x: p.x, y: p.y) }, style: .dots))
        }
        return shapes
    }
}
