// Firebase ML Vision's face detection guide and quickstart (`import Firebase`), as apps wrote them:
// options, `Vision.vision().faceDetector(options:)`, VisionImage with metadata, process, and the readout
// with NSNumber points. Only the import lines differ from the iOS code.
#if canImport(Firebase)
import Firebase
#else
import VisageFirebase
#endif

struct FirebaseFaceSummary: Equatable {
    var frame: CGRect
    var rotY: CGFloat?
    var rotZ: CGFloat?
    var leftEyePosition: CGPoint?
    var leftEyePoints: [CGPoint]?
    var allContourPointCount: Int
    var smileProb: CGFloat?
    var rightEyeOpenProb: CGFloat?
    var trackingId: Int?
}

final class FirebaseFaceDetection {
    lazy var vision = Vision.vision()
    let faceDetector: VisionFaceDetector

    init(tracking: Bool) {
        let options = VisionFaceDetectorOptions()
        options.performanceMode = .accurate
        options.landmarkMode = .all
        options.classificationMode = .all
        options.contourMode = .all
        options.isTrackingEnabled = tracking
        faceDetector = Vision.vision().faceDetector(options: options)
    }

    static func visionImage(_ uiImage: UIImage, orientation: VisionDetectorImageOrientation) -> VisionImage {
        let image = VisionImage(image: uiImage)
        let metadata = VisionImageMetadata()
        metadata.orientation = orientation
        image.metadata = metadata
        return image
    }

    func detect(in image: VisionImage, completion: @escaping ([FirebaseFaceSummary]?) -> Void) {
        faceDetector.process(image) { faces, error in
            guard error == nil, let faces = faces, !faces.isEmpty else {
                completion(error == nil ? [] : nil)
                return
            }
            completion(faces.map(Self.summary))
        }
    }

    static func summary(_ face: VisionFace) -> FirebaseFaceSummary {
        var summary = FirebaseFaceSummary(frame: face.frame, allContourPointCount: 0)
        if face.hasHeadEulerAngleY {
            summary.rotY = face.headEulerAngleY  // Head is rotated to the right rotY degrees
        }
        if face.hasHeadEulerAngleZ {
            summary.rotZ = face.headEulerAngleZ  // Head is rotated upward rotZ degrees
        }
        // If landmark detection was enabled (mouth, ears, eyes, cheeks, and
        // nose available):
        if let leftEye = face.landmark(ofType: .leftEye) {
            let leftEyePosition = leftEye.position
            summary.leftEyePosition = CGPoint(x: CGFloat(leftEyePosition.x.floatValue), y: CGFloat(leftEyePosition.y.floatValue))
        }
        // If contour detection was enabled:
        if let leftEyeContour = face.contour(ofType: .leftEye) {
            let leftEyePoints = leftEyeContour.points
            summary.leftEyePoints = leftEyePoints.map { CGPoint(x: $0.x.doubleValue, y: $0.y.doubleValue) }
        }
        if let allContour = face.contour(ofType: .all) {
            summary.allContourPointCount = allContour.points.count
        }
        // If classification was enabled:
        if face.hasSmilingProbability {
            summary.smileProb = face.smilingProbability
        }
        if face.hasRightEyeOpenProbability {
            summary.rightEyeOpenProb = face.rightEyeOpenProbability
        }
        // If face tracking was enabled:
        if face.hasTrackingID {
            summary.trackingId = face.trackingID
        }
        return summary
    }
}
