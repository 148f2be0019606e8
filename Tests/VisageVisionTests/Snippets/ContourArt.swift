#if canImport(Vision)
import Vision
#else
import VisageVision
#endif

/// The contour-art sweep of Kodeco's "Vision contour detection" tutorial: contours at several contrast
/// settings, simplified, with near-duplicates (IoU of bounding boxes) dropped.
final class ContourArtist {
    var pivotStride = stride(from: 0.2, through: 0.7, by: 0.25)
    var adjustStride = stride(from: 1.0, through: 3.0, by: 1.0)
    var iouThreshold: CGFloat = 0.85
    var epsilon: Float = 0.004
    var minimumPointCount = 8

    func paths(for cgImage: CGImage) throws -> [CGPath] {
        var kept: [CGPath] = []
        for pivot in pivotStride {
            for adjustment in adjustStride {
                let request = VNDetectContoursRequest()
                request.contrastPivot = NSNumber(value: pivot)
                request.contrastAdjustment = Float(adjustment)
                request.detectsDarkOnLight = true
                request.maximumImageDimension = 256
                try VNImageRequestHandler(cgImage: cgImage, options: [:]).perform([request])
                guard let observation = request.results?.first else { continue }
                for index in 0 ..< observation.contourCount {
                    let contour = try observation.contour(at: index)
                    guard contour.pointCount >= minimumPointCount else { continue }
                    let simplified = try contour.polygonApproximation(epsilon: epsilon)
                    let path = simplified.normalizedPath
                    if !kept.contains(where: { iou($0.boundingBox, path.boundingBox) > iouThreshold }) {
                        kept.append(path)
                    }
                }
            }
        }
        return kept
    }

    private func iou(_ a: CGRect, _ b: CGRect) -> CGFloat {
        let intersection = a.intersection(b)
        guard !intersection.isNull else { return 0 }
        let overlap = intersection.width * intersection.height
        return overlap / (a.width * a.height + b.width * b.height - overlap)
    }
}

/// Walking a path's elements, as drawing code does.
func vertexCount(of path: CGPath) -> (points: Int, subpaths: Int) {
    var points = 0, subpaths = 0
    path.applyWithBlock { element in
        switch element.pointee.type {
        case .moveToPoint: subpaths += 1; points += 1
        case .addLineToPoint: points += 1
        default: break
        }
    }
    return (points, subpaths)
}
