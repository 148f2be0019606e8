import Foundation

/// A face found in an image, shaped like Vision's `FaceObservation` (iOS 18 Swift API).
///
/// Coordinates are normalized to the upright picture (EXIF orientation applied) with the origin at
/// the lower left, as in Vision; ``NormalizedRect/toImageCoordinates(_:origin:)`` turns them into pixels.
///
/// Angles use ML Kit's signs (Vision documents none): `roll` is positive when the face is turned
/// counter-clockwise in the picture, `yaw` when it turns towards the picture's right, `pitch` when it
/// looks up. Roll is the angle of the line through the eyes. Yaw and pitch are coarse estimates from the
/// six keypoints and an average head (see `HeadAngles`): on the sample photos one frontal face read 5°
/// and 20° of pitch at two sizes, so expect errors of 15° and more, and no meaning beyond ±60°. The
/// face-mesh stage brings a fitted pose.
public struct FaceObservation: Sendable, Hashable, Codable, Identifiable {
    public let uuid: UUID
    /// The detector's score for this face, 0…1.
    public let confidence: Float
    /// The face box, normalized, origin at the lower left.
    public let boundingBox: NormalizedRect
    public let roll: Measurement<UnitAngle>
    public let yaw: Measurement<UnitAngle>
    public let pitch: Measurement<UnitAngle>
    /// The eyes, nose tip, mouth centre and ear tragions, normalized to the image like `boundingBox`.
    public let keypoints: FaceKeypoints

    public var id: UUID { uuid }

    public init(
        uuid: UUID = UUID(), confidence: Float, boundingBox: NormalizedRect, roll: Measurement<UnitAngle>,
        yaw: Measurement<UnitAngle>, pitch: Measurement<UnitAngle>, keypoints: FaceKeypoints
    ) {
        self.uuid = uuid
        self.confidence = confidence
        self.boundingBox = boundingBox
        self.roll = roll
        self.yaw = yaw
        self.pitch = pitch
        self.keypoints = keypoints
    }

    init(_ face: DetectedFace) {
        let d = face.detection
        self.init(
            confidence: d.score,
            boundingBox: NormalizedRect(
                x: Double(d.xMin), y: 1 - Double(d.yMax), width: Double(d.width), height: Double(d.height)),
            roll: Measurement(value: face.angles.roll, unit: .radians),
            yaw: Measurement(value: face.angles.yaw, unit: .radians),
            pitch: Measurement(value: face.angles.pitch, unit: .radians),
            keypoints: FaceKeypoints(topLeftNormalized: d.keypoints))
    }
}
