import VisageGeometry

/// The upright picture turned clockwise by a multiple of 90°: a view the detector runs on during
/// rotation search, so faces lying on their side or upside down are upright for it.
///
/// A view needs no pixels of its own: its orientation relative to the stored pixels is another of the
/// eight EXIF orientations, which the detector's warp already folds in. Detections come back normalized
/// to the view and are mapped to the upright picture by ``uprightDetection(_:)``.
package enum QuarterTurn: Int, Sendable, Hashable, CaseIterable {
    case none = 0, clockwise = 1, half = 2, counterClockwise = 3

    /// The upright unit point shown at the view's unit point (`a`, `b`) (origin top left).
    package func uprightPoint(_ a: Double, _ b: Double) -> (u: Double, v: Double) {
        switch self {
        case .none: (a, b)
        case .clockwise: (b, 1 - a)
        case .half: (1 - a, 1 - b)
        case .counterClockwise: (1 - b, a)
        }
    }

    /// The orientation of stored pixels, whose upright picture is given by `orientation`, that shows this view.
    package func viewOrientation(of orientation: ImageOrientation) -> ImageOrientation {
        // The eight orientations form a group, so exactly one matches; three points not on a line fix an affine map.
        let probes = [(0.1, 0.2), (0.7, 0.3), (0.4, 0.9)]
        return ImageOrientation.allCases.first { candidate in
            probes.allSatisfy { a, b in
                let turned = uprightPoint(a, b)
                let expected = orientation.rawUnitPoint(fromUpright: turned.u, turned.v)
                let actual = candidate.rawUnitPoint(fromUpright: a, b)
                return abs(actual.x - expected.x) < 1e-9 && abs(actual.y - expected.y) < 1e-9
            }
        }!
    }

    /// A detection normalized to the view, normalized to the upright picture: keypoints mapped, the box
    /// the mapped corners span (a quarter turn keeps an axis-aligned box axis-aligned).
    package func uprightDetection(_ detection: Detection) -> Detection {
        guard self != .none else { return detection }
        func map(_ p: SIMD2<Float>) -> SIMD2<Float> {
            let u = uprightPoint(Double(p.x), Double(p.y))
            return SIMD2(Float(u.u), Float(u.v))
        }
        let a = map(SIMD2(detection.xMin, detection.yMin)), b = map(SIMD2(detection.xMax, detection.yMax))
        let low = pointwiseMin(a, b), high = pointwiseMax(a, b)
        return Detection(
            xMin: low.x, yMin: low.y, width: high.x - low.x, height: high.y - low.y,
            keypoints: detection.keypoints.map(map), score: detection.score)
    }

    /// The faces of every view's pass (normalized to the upright picture), one per face: where views
    /// overlap (IoU above `threshold`), the detection the detector is most confident of. The detector was
    /// trained on upright faces, so it scores a face highest in the view where the face stands upright;
    /// its keypoints cannot tell, since it reads a face on its side with keypoints placed as if upright.
    /// Equal scores go to the earlier view, so an upright face keeps the upright pass's detection.
    package static func mostConfident(
        _ passes: [(turn: QuarterTurn, detections: [Detection])], threshold: Float
    ) -> [Detection] {
        let candidates = passes.flatMap { pass in pass.detections.map { (detection: $0, order: pass.turn.rawValue) } }
            .sorted { a, b in a.detection.score != b.detection.score ? a.detection.score > b.detection.score : a.order < b.order }
        var kept: [Detection] = []
        for candidate in candidates where !kept.contains(where: { $0.intersectionOverUnion(candidate.detection) > threshold }) {
            kept.append(candidate.detection)
        }
        return kept
    }
}
