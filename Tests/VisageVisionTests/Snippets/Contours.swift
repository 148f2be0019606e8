#if canImport(Vision)
import Vision
#else
import VisageVision
#endif

struct ContourSummary {
    var contourCount: Int
    var topLevelCount: Int
    var firstChildPath: IndexPath?
    var largestCircle: VNCircle?
    var largestArea: Double
    var pathBounds: CGRect
}

/// Contours of a picture with the four knobs set, walked through the hierarchy and measured.
func summarizeContours(at url: URL, orientation: CGImagePropertyOrientation = .up) throws -> ContourSummary? {
    let request = VNDetectContoursRequest()
    request.contrastAdjustment = 1.5
    request.contrastPivot = nil
    request.detectsDarkOnLight = true
    request.maximumImageDimension = 300
    let handler = VNImageRequestHandler(url: url, orientation: orientation, options: [:])
    try handler.perform([request])
    guard let observation = request.results?.first else { return nil }

    var largestArea = 0.0
    var largest: VNContour?
    for contour in observation.topLevelContours {
        var area = 0.0
        try VNGeometryUtils.calculateArea(&area, for: contour, orientedArea: false)
        if area > largestArea {
            largestArea = area
            largest = contour
        }
    }
    let child = observation.topLevelContours.first { $0.childContourCount > 0 }?.childContours.first
    return ContourSummary(
        contourCount: observation.contourCount,
        topLevelCount: observation.topLevelContourCount,
        firstChildPath: child?.indexPath,
        largestCircle: try largest.map { try VNGeometryUtils.boundingCircle(for: $0) },
        largestArea: largestArea,
        pathBounds: observation.normalizedPath.boundingBox)
}
