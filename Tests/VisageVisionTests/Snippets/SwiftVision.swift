#if canImport(Vision)
import Vision
#else
import VisageVision
#endif

struct LandmarkOverlay {
    var faceRect: CGRect           // pixels, origin upper left
    var leftEye: [CGPoint]         // pixels, origin upper left
    var mouthCenter: CGPoint       // normalized to the image, origin lower left, computed by hand
    var quality: Float?
}

/// The iOS 18 Swift API: requests as values, `perform(on:orientation:)`, conversion to UIKit coordinates.
func landmarkOverlays(for image: CIImage) async throws -> [LandmarkOverlay] {
    let size = image.extent.size
    let faces = try await DetectFaceLandmarksRequest().perform(on: image, orientation: .up)
    var quality = DetectFaceCaptureQualityRequest()
    quality.inputFaceObservations = faces
    let rated = try await quality.perform(on: image)
    return zip(faces, rated).compactMap { face, rated in
        guard let landmarks = face.landmarks else { return nil }
        let box = face.boundingBox
        let lips = landmarks.outerLips.points
        let mean = lips.reduce(CGPoint.zero) { CGPoint(x: $0.x + $1.x, y: $0.y + $1.y) }
        let mouth = CGPoint(
            x: box.origin.x + mean.x / CGFloat(lips.count) * box.width,
            y: box.origin.y + mean.y / CGFloat(lips.count) * box.height)
        return LandmarkOverlay(
            faceRect: box.toImageCoordinates(size, origin: .upperLeft),
            leftEye: landmarks.leftEye.pointsInImageCoordinates(size, origin: .upperLeft),
            mouthCenter: mouth,
            quality: rated.captureQuality?.score)
    }
}

/// One handler, two requests, one decode.
func facesAndOutlines(in url: URL) async throws -> (faces: [CGRect], outlines: Int, firstChild: IndexPath?) {
    let handler = ImageRequestHandler(url)
    var contours = DetectContoursRequest()
    contours.contrastPivot = nil
    contours.maximumImageDimension = 256
    let (faces, observation) = try await handler.perform(DetectFaceRectanglesRequest(), contours)
    let simplified = try observation.topLevelContours.map { try $0.polygonApproximation(epsilon: 0.01) }
    let child = observation.countourAtIndexPath(IndexPath(indexes: [0, 0]))
    return (faces.map(\.boundingBox.cgRect), simplified.count, child?.indexPath)
}
