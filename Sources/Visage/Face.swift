import Foundation

/// A face as ML Kit reports it: a pixel frame with the origin at the top left and Euler angles in degrees.
///
/// Left and right are the subject's throughout, as ML Kit's.
public struct Face: Sendable, Hashable {
    /// The face box in pixels of the upright picture, origin at the top left.
    public let frame: CGRect
    /// Rotation about the horizontal axis, degrees, positive when the face looks up: fitted to the face
    /// mesh when landmarks, contours or classification ran, otherwise a coarse keypoint estimate (see
    /// ``FaceObservation``).
    public let headEulerAngleX: Double
    /// Rotation about the vertical axis, degrees, positive when the face turns towards the picture's
    /// right: fitted or estimated as `headEulerAngleX`.
    public let headEulerAngleY: Double
    /// Rotation in the picture plane, degrees, positive counter-clockwise (from the fitted pose, or from
    /// the eyes).
    public let headEulerAngleZ: Double
    /// The detector's score, 0…1.
    public let confidence: Float
    /// Keypoint positions in pixels of the upright picture, origin at the top left.
    public let keypoints: [FaceKeypoint: CGPoint]
    /// ML Kit's ten landmarks when ``FaceDetectorOptions/landmarkMode`` is `.all` and the mesh found the
    /// face; empty otherwise.
    public let landmarks: [FaceLandmark]
    /// ML Kit's fifteen contours when ``FaceDetectorOptions/contourMode`` is `.all` and the mesh found the
    /// face; empty otherwise.
    public let contours: [FaceContour]
    /// Probability that the face smiles, 0…1 (0.5 is the threshold it is calibrated for; see
    /// ``FaceClassification``); nil unless ``FaceDetectorOptions/classificationMode`` is `.all`.
    public let smilingProbability: Float?
    /// Probability that the subject's left eye is open; nil unless classification is on.
    public let leftEyeOpenProbability: Float?
    /// Probability that the subject's right eye is open; nil unless classification is on.
    public let rightEyeOpenProbability: Float?

    public init(
        frame: CGRect, headEulerAngleX: Double, headEulerAngleY: Double, headEulerAngleZ: Double, confidence: Float,
        keypoints: [FaceKeypoint: CGPoint], landmarks: [FaceLandmark] = [], contours: [FaceContour] = [],
        smilingProbability: Float? = nil, leftEyeOpenProbability: Float? = nil, rightEyeOpenProbability: Float? = nil
    ) {
        self.frame = frame
        self.headEulerAngleX = headEulerAngleX
        self.headEulerAngleY = headEulerAngleY
        self.headEulerAngleZ = headEulerAngleZ
        self.confidence = confidence
        self.keypoints = keypoints
        self.landmarks = landmarks
        self.contours = contours
        self.smilingProbability = smilingProbability
        self.leftEyeOpenProbability = leftEyeOpenProbability
        self.rightEyeOpenProbability = rightEyeOpenProbability
    }

    /// The landmark of `type`, or nil when landmarks were not requested or not found (ML Kit's `landmark(ofType:)`).
    public func landmark(_ type: FaceLandmark.LandmarkType) -> FaceLandmark? {
        landmarks.first { $0.type == type }
    }

    /// The contour of `type`, or nil when contours were not requested or not found (ML Kit's `contour(ofType:)`).
    public func contour(_ type: FaceContour.ContourType) -> FaceContour? {
        contours.first { $0.type == type }
    }

    /// A detected face with what `options` asked of its `analysis` (nil when the mesh did not run or found
    /// no face); the fitted pose replaces the keypoint angles.
    init(_ face: DetectedFace, analysis: FaceAnalysis? = nil, options: FaceDetectorOptions = .init()) {
        let d = face.detection
        let (width, height) = (Double(face.imageWidth), Double(face.imageHeight))
        let degrees = 180 / Double.pi
        let angles = analysis.map { (x: $0.pose.headEulerAngleX, y: $0.pose.headEulerAngleY, z: $0.pose.headEulerAngleZ) }
            ?? (x: face.angles.pitch * degrees, y: face.angles.yaw * degrees, z: face.angles.roll * degrees)
        let mesh = analysis?.mesh
        let classification = options.classificationMode == .all ? analysis?.classification : nil
        self.init(
            frame: CGRect(
                x: Double(d.xMin) * width, y: Double(d.yMin) * height, width: Double(d.width) * width,
                height: Double(d.height) * height),
            headEulerAngleX: angles.x, headEulerAngleY: angles.y, headEulerAngleZ: angles.z, confidence: d.score,
            keypoints: Dictionary(uniqueKeysWithValues: zip(FaceKeypoint.allCases, face.pixelKeypoints.map { CGPoint(x: $0.x, y: $0.y) })),
            landmarks: options.landmarkMode == .all ? mesh.flatMap { try? FaceLandmark.all(in: $0) } ?? [] : [],
            contours: options.contourMode == .all ? mesh.flatMap { try? FaceContour.all(in: $0) } ?? [] : [],
            smilingProbability: classification?.smilingProbability,
            leftEyeOpenProbability: classification?.leftEyeOpenProbability,
            rightEyeOpenProbability: classification?.rightEyeOpenProbability)
    }
}
