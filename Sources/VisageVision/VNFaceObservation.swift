import Foundation
import Visage

/// A face: Vision's `VNFaceObservation`, made from Visage's `FaceObservation`.
///
/// `boundingBox` is normalized, origin at the lower left. `roll`, `yaw` and `pitch` are radians (nil when
/// the request's revision does not compute them: revision 1 none, revision 2 roll and yaw, revision 3
/// all three), with Visage's signs: roll positive counter-clockwise in the picture, yaw positive when the
/// face turns towards the picture's right, pitch positive when it looks up. Landmark and capture-quality
/// requests set all three from the head pose fitted to the face mesh.
open class VNFaceObservation: VNDetectedObjectObservation, @unchecked Sendable {
    public let landmarks: VNFaceLandmarks2D?
    public let roll: NSNumber?
    public let yaw: NSNumber?
    public let pitch: NSNumber?
    /// 0…1, for ranking captures of one face; set by `VNDetectFaceCaptureQualityRequest`.
    public let faceCaptureQuality: Float?
    /// Visage's observation this one shows: what later requests (`inputFaceObservations`) start from.
    public let visageObservation: Visage.FaceObservation

    init(_ face: Visage.FaceObservation, requestRevision: Int, angles: Int = 3) {
        visageObservation = face
        landmarks = face.landmarks.map { VNFaceLandmarks2D($0, confidence: face.analysis?.mesh.presence ?? face.confidence) }
        roll = angles >= 1 ? NSNumber(value: face.roll.converted(to: .radians).value) : nil
        yaw = angles >= 2 ? NSNumber(value: face.yaw.converted(to: .radians).value) : nil
        pitch = angles >= 3 ? NSNumber(value: face.pitch.converted(to: .radians).value) : nil
        faceCaptureQuality = face.captureQuality
        super.init(
            uuid: face.uuid, confidence: face.confidence, requestRevision: requestRevision,
            boundingBox: CGRect(face.boundingBox))
    }

    /// A face the caller knows, for `inputFaceObservations`: confidence 1, no landmarks.
    public convenience init(requestRevision: Int, boundingBox: CGRect, roll: NSNumber?, yaw: NSNumber?, pitch: NSNumber?) {
        let unknown = Visage.NormalizedPoint(x: .nan, y: .nan)
        let face = Visage.FaceObservation(
            confidence: 1, boundingBox: Visage.NormalizedRect(boundingBox),
            roll: Measurement(value: roll?.doubleValue ?? 0, unit: .radians),
            yaw: Measurement(value: yaw?.doubleValue ?? 0, unit: .radians),
            pitch: Measurement(value: pitch?.doubleValue ?? 0, unit: .radians),
            keypoints: FaceKeypoints(
                rightEye: unknown, leftEye: unknown, noseTip: unknown, mouthCenter: unknown,
                rightEarTragion: unknown, leftEarTragion: unknown))
        self.init(face, requestRevision: requestRevision, angles: 0, roll: roll, yaw: yaw, pitch: pitch)
    }

    @available(*, deprecated, message: "use init(requestRevision:boundingBox:roll:yaw:pitch:)")
    public convenience init(requestRevision: Int, boundingBox: CGRect, roll: NSNumber?, yaw: NSNumber?) {
        self.init(requestRevision: requestRevision, boundingBox: boundingBox, roll: roll, yaw: yaw, pitch: nil)
    }

    private init(_ face: Visage.FaceObservation, requestRevision: Int, angles: Int, roll: NSNumber?, yaw: NSNumber?, pitch: NSNumber?) {
        visageObservation = face
        landmarks = nil
        self.roll = roll
        self.yaw = yaw
        self.pitch = pitch
        faceCaptureQuality = nil
        super.init(uuid: face.uuid, confidence: 1, requestRevision: requestRevision, boundingBox: CGRect(face.boundingBox))
    }
}

extension CGRect {
    init(_ rect: Visage.NormalizedRect) {
        self.init(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height)
    }
}

extension Visage.NormalizedRect {
    init(_ rect: CGRect) {
        self.init(x: Double(rect.minX), y: Double(rect.minY), width: Double(rect.width), height: Double(rect.height))
    }
}
