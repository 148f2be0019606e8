import Foundation

/// A face found in an image, shaped like Vision's `FaceObservation` (iOS 18 Swift API).
///
/// Coordinates are normalized to the upright picture (EXIF orientation applied) with the origin at
/// the lower left, as in Vision; ``NormalizedRect/toImageCoordinates(_:origin:)`` turns them into pixels.
///
/// Angles are radians with ML Kit's signs (Vision documents none): `roll` is positive when the face is
/// turned counter-clockwise in the picture, `yaw` when it turns towards the picture's right, `pitch` when
/// it looks up. From ``DetectFaceRectanglesRequest`` roll is the angle of the line through the eyes, and
/// yaw and pitch are coarse estimates from the six keypoints and an average head (see `HeadAngles`): on
/// the sample photos one frontal face read 5° and 20° of pitch at two sizes, so expect errors of 15° and
/// more, and no meaning beyond ±60°. Once landmarks ran (``DetectFaceLandmarksRequest``,
/// ``DetectFaceCaptureQualityRequest``) all three come from the canonical face fitted to the mesh
/// (``HeadPose``), within 2° of MediaPipe's facial transformation matrix on the test photos.
public struct FaceObservation: Sendable, Hashable, Identifiable {
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
    /// How suitable the capture is, 0…1, for ranking captures of one person (see ``CaptureQuality``);
    /// set by ``DetectFaceCaptureQualityRequest``, nil otherwise or when no face mesh was found.
    public let captureQuality: Float?
    /// The face mesh, blendshapes, fitted head pose and classification the landmarks come from; set by
    /// the landmark and capture-quality requests, nil when the mesh model found no face in the region.
    public let analysis: FaceAnalysis?

    public var id: UUID { uuid }

    /// Vision's landmark regions, normalized to ``boundingBox`` with the origin at its lower left; nil
    /// until landmarks ran, or when the mesh model found no face in the box.
    public var landmarks: FaceLandmarks2D? {
        guard let analysis else { return nil }
        return try? FaceLandmarks2D(mesh: analysis.mesh, boundingBox: boundingBox)
    }

    /// An observation; given an `analysis`, roll, yaw and pitch are the caller's, not the analysis's.
    public init(
        uuid: UUID = UUID(), confidence: Float, boundingBox: NormalizedRect, roll: Measurement<UnitAngle>,
        yaw: Measurement<UnitAngle>, pitch: Measurement<UnitAngle>, keypoints: FaceKeypoints,
        captureQuality: Float? = nil, analysis: FaceAnalysis? = nil
    ) {
        self.uuid = uuid
        self.confidence = confidence
        self.boundingBox = boundingBox
        self.roll = roll
        self.yaw = yaw
        self.pitch = pitch
        self.keypoints = keypoints
        self.captureQuality = captureQuality
        self.analysis = analysis
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

    /// This face with what the mesh stage found: the analysis, the angles of its fitted pose, and the
    /// capture quality when measured. Without an analysis (no face in the region) it is unchanged.
    func adding(_ result: LandmarkResult) -> FaceObservation {
        guard let analysis = result.analysis else { return self }
        return FaceObservation(
            uuid: uuid, confidence: confidence, boundingBox: boundingBox,
            roll: Measurement(value: analysis.pose.roll, unit: .radians),
            yaw: Measurement(value: analysis.pose.yaw, unit: .radians),
            pitch: Measurement(value: analysis.pose.pitch, unit: .radians),
            keypoints: keypoints, captureQuality: result.captureQuality ?? captureQuality, analysis: analysis)
    }
}
