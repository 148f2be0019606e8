import Foundation

/// A face as ML Kit reports it: a pixel frame with the origin at the top left and Euler angles in degrees.
public struct Face: Sendable, Hashable {
    /// The face box in pixels of the upright picture, origin at the top left.
    public let frame: CGRect
    /// Rotation about the horizontal axis, degrees, positive when the face looks up (a coarse estimate,
    /// see ``FaceObservation``).
    public let headEulerAngleX: Double
    /// Rotation about the vertical axis, degrees, positive when the face turns towards the picture's
    /// right (a coarse estimate).
    public let headEulerAngleY: Double
    /// Rotation in the picture plane, degrees, positive counter-clockwise (measured from the eyes).
    public let headEulerAngleZ: Double
    /// The detector's score, 0…1.
    public let confidence: Float
    /// Keypoint positions in pixels of the upright picture, origin at the top left.
    public let keypoints: [FaceKeypoint: CGPoint]

    public init(
        frame: CGRect, headEulerAngleX: Double, headEulerAngleY: Double, headEulerAngleZ: Double, confidence: Float,
        keypoints: [FaceKeypoint: CGPoint]
    ) {
        self.frame = frame
        self.headEulerAngleX = headEulerAngleX
        self.headEulerAngleY = headEulerAngleY
        self.headEulerAngleZ = headEulerAngleZ
        self.confidence = confidence
        self.keypoints = keypoints
    }

    init(_ face: DetectedFace) {
        let d = face.detection
        let (width, height) = (Double(face.imageWidth), Double(face.imageHeight))
        let degrees = 180 / Double.pi
        self.init(
            frame: CGRect(
                x: Double(d.xMin) * width, y: Double(d.yMin) * height, width: Double(d.width) * width,
                height: Double(d.height) * height),
            headEulerAngleX: face.angles.pitch * degrees, headEulerAngleY: face.angles.yaw * degrees,
            headEulerAngleZ: face.angles.roll * degrees, confidence: d.score,
            keypoints: Dictionary(uniqueKeysWithValues: zip(FaceKeypoint.allCases, face.pixelKeypoints.map { CGPoint(x: $0.x, y: $0.y) })))
    }
}
