// Google's ML Kit face detection guide for iOS ("Detect faces with ML Kit on iOS"), as apps copy it:
// options, detector, VisionImage with the image's orientation, synchronous and asynchronous detection,
// and the per-face readout. Only the import lines differ from the iOS code.
#if canImport(MLKitFaceDetection)
import MLKitFaceDetection
import MLKitVision
#else
import VisageMLKit
#endif

/// What the guide's readout collects from one face.
struct FaceSummary: Equatable {
    var frame: CGRect
    var rotX: CGFloat?
    var rotY: CGFloat?
    var rotZ: CGFloat?
    var leftEyePosition: CGPoint?
    var mouthBottomPosition: CGPoint?
    var landmarkCount: Int
    var leftEyeContour: [CGPoint]?
    var upperLipBottomContour: [CGPoint]?
    var contourPointCount: Int
    var smileProb: CGFloat?
    var leftEyeOpenProb: CGFloat?
    var rightEyeOpenProb: CGFloat?
    var trackingId: Int?
}

final class GuideFaceDetection {
    let faceDetector: FaceDetector

    init(accurate: Bool, landmarks: Bool, contours: Bool, classification: Bool, minFaceSize: CGFloat = 0.1, tracking: Bool = false) {
        // High-accuracy landmark detection and face classification
        let options = FaceDetectorOptions()
        options.performanceMode = accurate ? .accurate : .fast
        options.landmarkMode = landmarks ? .all : .none
        options.contourMode = contours ? .all : .none
        options.classificationMode = classification ? .all : .none
        options.minFaceSize = minFaceSize
        options.isTrackingEnabled = tracking
        faceDetector = FaceDetector.faceDetector(options: options)
    }

    static func visionImage(_ image: UIImage) -> VisionImage {
        let visionImage = VisionImage(image: image)
        visionImage.orientation = image.imageOrientation
        return visionImage
    }

    func detectSynchronously(in image: VisionImage) -> [FaceSummary]? {
        var faces: [Face]
        do {
            faces = try faceDetector.results(in: image)
        } catch let error {
            print("Failed to detect faces with error: \(error.localizedDescription).")
            return nil
        }
        return faces.map(Self.summary)
    }

    func detect(in image: VisionImage, completion: @escaping ([FaceSummary]?) -> Void) {
        faceDetector.process(image) { faces, error in
            guard error == nil, let faces = faces, !faces.isEmpty else {
                completion(error == nil ? [] : nil)
                return
            }
            completion(faces.map(Self.summary))
        }
    }

    static func summary(_ face: Face) -> FaceSummary {
        var summary = FaceSummary(frame: face.frame, landmarkCount: face.landmarks.count, contourPointCount: 0)
        // Head is rotated to the up by rotX degrees
        if face.hasHeadEulerAngleX {
            summary.rotX = face.headEulerAngleX
        }
        // Head is rotated to the right by rotY degrees
        if face.hasHeadEulerAngleY {
            summary.rotY = face.headEulerAngleY
        }
        // Head is tilted sideways rotZ degrees
        if face.hasHeadEulerAngleZ {
            summary.rotZ = face.headEulerAngleZ
        }
        // If landmark detection was enabled (mouth, ears, eyes, cheeks, and
        // nose available):
        if let leftEye = face.landmark(ofType: .leftEye) {
            let leftEyePosition = leftEye.position
            summary.leftEyePosition = CGPoint(x: leftEyePosition.x, y: leftEyePosition.y)
        }
        if let mouthBottom = face.landmark(ofType: .mouthBottom) {
            summary.mouthBottomPosition = CGPoint(x: mouthBottom.position.x, y: mouthBottom.position.y)
        }
        // If contour detection was enabled:
        if let leftEyeContour = face.contour(ofType: .leftEye) {
            let leftEyePoints = leftEyeContour.points
            summary.leftEyeContour = leftEyePoints.map { CGPoint(x: $0.x, y: $0.y) }
        }
        if let upperLipBottomContour = face.contour(ofType: .upperLipBottom) {
            let upperLipBottomPoints = upperLipBottomContour.points
            summary.upperLipBottomContour = upperLipBottomPoints.map { CGPoint(x: $0.x, y: $0.y) }
        }
        for contour in face.contours {
            summary.contourPointCount += contour.points.count
        }
        // If classification was enabled:
        if face.hasSmilingProbability {
            summary.smileProb = face.smilingProbability
        }
        if face.hasRightEyeOpenProbability {
            summary.rightEyeOpenProb = face.rightEyeOpenProbability
        }
        if face.hasLeftEyeOpenProbability {
            summary.leftEyeOpenProb = face.leftEyeOpenProbability
        }
        // If face tracking was enabled:
        if face.hasTrackingID {
            summary.trackingId = face.trackingID
        }
        return summary
    }
}
