internal import Visage

/// ML Kit's `Face`: a detected face in pixels of the upright image (origin top left), angles in degrees.
///
/// Each value has a `has…` flag; where it is false the value is 0. Euler angles are ML Kit's signs: X
/// positive when the face turns up, Y when it turns towards the image's right, Z counter-clockwise.
/// They come from the pose fitted to the face mesh when landmarks, contours or classification ran, else
/// from the detector's keypoints (coarse; see Visage's `FaceObservation`). Left and right are the
/// subject's. Landmarks and contours are empty unless their mode is `.all`; contours belong to the most
/// prominent (largest) face only, as in ML Kit.
public final class Face: Sendable {
    public let frame: CGRect
    public let landmarks: [FaceLandmark]
    public let contours: [FaceContour]
    public let hasTrackingID: Bool
    public let trackingID: Int
    public let hasHeadEulerAngleX: Bool
    public let headEulerAngleX: CGFloat
    public let hasHeadEulerAngleY: Bool
    public let headEulerAngleY: CGFloat
    public let hasHeadEulerAngleZ: Bool
    public let headEulerAngleZ: CGFloat
    public let hasSmilingProbability: Bool
    public let smilingProbability: CGFloat
    public let hasLeftEyeOpenProbability: Bool
    public let leftEyeOpenProbability: CGFloat
    public let hasRightEyeOpenProbability: Bool
    public let rightEyeOpenProbability: CGFloat

    /// The landmark of `type`, nil when landmarks were not asked for or not found.
    public func landmark(ofType type: FaceLandmarkType) -> FaceLandmark? {
        landmarks.first { $0.type == type }
    }

    /// The contour of `type`, nil when contours were not asked for or this is not the most prominent face.
    public func contour(ofType type: FaceContourType) -> FaceContour? {
        contours.first { $0.type == type }
    }

    /// Visage's face in ML Kit's shape.
    init(_ face: Visage.Face, trackingID: Int?, angles: Bool, contours: Bool) {
        frame = face.frame
        landmarks = face.landmarks.map { FaceLandmark(type: FaceLandmarkType(visage: $0.type), position: VisionPoint($0.position)) }
        self.contours = contours ? face.contours.map { FaceContour(type: FaceContourType(visage: $0.type), points: $0.points.map(VisionPoint.init)) } : []
        (hasTrackingID, self.trackingID) = (trackingID != nil, trackingID ?? 0)
        (hasHeadEulerAngleX, headEulerAngleX) = (angles, angles ? CGFloat(face.headEulerAngleX) : 0)
        (hasHeadEulerAngleY, headEulerAngleY) = (angles, angles ? CGFloat(face.headEulerAngleY) : 0)
        (hasHeadEulerAngleZ, headEulerAngleZ) = (angles, angles ? CGFloat(face.headEulerAngleZ) : 0)
        (hasSmilingProbability, smilingProbability) = (face.smilingProbability != nil, CGFloat(face.smilingProbability ?? 0))
        (hasLeftEyeOpenProbability, leftEyeOpenProbability) = (face.leftEyeOpenProbability != nil, CGFloat(face.leftEyeOpenProbability ?? 0))
        (hasRightEyeOpenProbability, rightEyeOpenProbability) = (face.rightEyeOpenProbability != nil, CGFloat(face.rightEyeOpenProbability ?? 0))
    }
}

extension FaceLandmarkType {
    init(visage type: Visage.FaceLandmark.LandmarkType) {
        switch type {
        case .leftEye: self = .leftEye
        case .rightEye: self = .rightEye
        case .leftEar: self = .leftEar
        case .rightEar: self = .rightEar
        case .leftCheek: self = .leftCheek
        case .rightCheek: self = .rightCheek
        case .noseBase: self = .noseBase
        case .mouthLeft: self = .mouthLeft
        case .mouthRight: self = .mouthRight
        case .mouthBottom: self = .mouthBottom
        }
    }
}

extension FaceContourType {
    init(visage type: Visage.FaceContour.ContourType) {
        switch type {
        case .face: self = .face
        case .leftEyebrowTop: self = .leftEyebrowTop
        case .leftEyebrowBottom: self = .leftEyebrowBottom
        case .rightEyebrowTop: self = .rightEyebrowTop
        case .rightEyebrowBottom: self = .rightEyebrowBottom
        case .leftEye: self = .leftEye
        case .rightEye: self = .rightEye
        case .upperLipTop: self = .upperLipTop
        case .upperLipBottom: self = .upperLipBottom
        case .lowerLipTop: self = .lowerLipTop
        case .lowerLipBottom: self = .lowerLipBottom
        case .noseBridge: self = .noseBridge
        case .noseBottom: self = .noseBottom
        case .leftCheek: self = .leftCheek
        case .rightCheek: self = .rightCheek
        }
    }
}
