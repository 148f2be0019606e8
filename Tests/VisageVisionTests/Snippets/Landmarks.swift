#if canImport(Vision)
import Vision
#else
import VisageVision
#endif

struct EyeOutline {
    var faceBox: CGRect
    var leftEye: [CGPoint]      // normalized to the image, origin lower left
    var rightEyeInImage: [CGPoint]
    var lipsPointCount: Int
}

/// Detect faces, keep the confident ones, then find landmarks on those only, and map the eye points
/// from the face box to the image, by hand and with `pointsInImage(imageSize:)`.
func eyeOutlines(in cgImage: CGImage, minimumConfidence: VNConfidence = 0.7) throws -> [EyeOutline] {
    let handler = VNImageRequestHandler(cgImage: cgImage, options: [:])
    let faceRequest = VNDetectFaceRectanglesRequest()
    try handler.perform([faceRequest])
    let confident = (faceRequest.results ?? []).filter { $0.confidence > minimumConfidence }
    guard !confident.isEmpty else { return [] }

    let landmarksRequest = VNDetectFaceLandmarksRequest()
    landmarksRequest.inputFaceObservations = confident
    try handler.perform([landmarksRequest])

    var outlines: [EyeOutline] = []
    for face in landmarksRequest.results ?? [] {
        guard let landmarks = face.landmarks, let leftEye = landmarks.leftEye, let rightEye = landmarks.rightEye else {
            continue
        }
        let box = face.boundingBox
        let left = leftEye.normalizedPoints.map { point in
            CGPoint(x: box.origin.x + point.x * box.size.width, y: box.origin.y + point.y * box.size.height)
        }
        let imageSize = CGSize(width: cgImage.width, height: cgImage.height)
        outlines.append(EyeOutline(
            faceBox: box, leftEye: left, rightEyeInImage: rightEye.pointsInImage(imageSize: imageSize),
            lipsPointCount: landmarks.outerLips?.pointCount ?? 0))
    }
    return outlines
}

/// Several requests in one perform, read back from the typed results and through `VNImagePointForFaceLandmarkPoint`.
func noseTipAndQuality(of url: URL) throws -> (noseTip: CGPoint, quality: Float)? {
    let landmarks = VNDetectFaceLandmarksRequest()
    let quality = VNDetectFaceCaptureQualityRequest()
    try VNImageRequestHandler(url: url).perform([landmarks, quality])
    guard let face = landmarks.results?.first, let crest = face.landmarks?.noseCrest,
          let score = quality.results?.first?.faceCaptureQuality, let last = crest.normalizedPoints.last
    else { return nil }
    let tip = VNImagePointForFaceLandmarkPoint(
        vector_float2(Float(last.x), Float(last.y)), face.boundingBox, 512, 512)
    return (tip, score)
}
