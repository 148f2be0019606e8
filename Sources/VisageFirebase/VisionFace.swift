internal import VisageMLKit

/// Firebase's `FaceLandmarkType`.
public struct FaceLandmarkType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let mouthBottom = FaceLandmarkType(rawValue: "MouthBottom")
    public static let mouthRight = FaceLandmarkType(rawValue: "MouthRight")
    public static let mouthLeft = FaceLandmarkType(rawValue: "MouthLeft")
    public static let leftEar = FaceLandmarkType(rawValue: "LeftEar")
    public static let rightEar = FaceLandmarkType(rawValue: "RightEar")
    public static let leftEye = FaceLandmarkType(rawValue: "LeftEye")
    public static let rightEye = FaceLandmarkType(rawValue: "RightEye")
    public static let leftCheek = FaceLandmarkType(rawValue: "LeftCheek")
    public static let rightCheek = FaceLandmarkType(rawValue: "RightCheek")
    public static let noseBase = FaceLandmarkType(rawValue: "NoseBase")
}

/// Firebase's `FaceContourType`: ML Kit's fifteen, plus `.all`, every point of the fifteen in that order.
public struct FaceContourType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let all = FaceContourType(rawValue: "All")
    public static let face = FaceContourType(rawValue: "Face")
    public static let leftEyebrowTop = FaceContourType(rawValue: "LeftEyebrowTop")
    public static let leftEyebrowBottom = FaceContourType(rawValue: "LeftEyebrowBottom")
    public static let rightEyebrowTop = FaceContourType(rawValue: "RightEyebrowTop")
    public static let rightEyebrowBottom = FaceContourType(rawValue: "RightEyebrowBottom")
    public static let leftEye = FaceContourType(rawValue: "LeftEye")
    public static let rightEye = FaceContourType(rawValue: "RightEye")
    public static let upperLipTop = FaceContourType(rawValue: "UpperLipTop")
    public static let upperLipBottom = FaceContourType(rawValue: "UpperLipBottom")
    public static let lowerLipTop = FaceContourType(rawValue: "LowerLipTop")
    public static let lowerLipBottom = FaceContourType(rawValue: "LowerLipBottom")
    public static let noseBridge = FaceContourType(rawValue: "NoseBridge")
    public static let noseBottom = FaceContourType(rawValue: "NoseBottom")
    public static let leftCheek = FaceContourType(rawValue: "LeftCheek")
    public static let rightCheek = FaceContourType(rawValue: "RightCheek")
}

/// Firebase's `VisionFaceLandmark`.
public final class VisionFaceLandmark: @unchecked Sendable {
    public let type: FaceLandmarkType
    public let position: VisionPoint

    init(type: FaceLandmarkType, position: VisionPoint) {
        (self.type, self.position) = (type, position)
    }
}

/// Firebase's `VisionFaceContour`.
public final class VisionFaceContour: @unchecked Sendable {
    public let type: FaceContourType
    public let points: [VisionPoint]

    init(type: FaceContourType, points: [VisionPoint]) {
        (self.type, self.points) = (type, points)
    }
}

/// Firebase's `VisionFace`: ML Kit's `Face` without the X Euler angle, with `NSNumber` points.
public final class VisionFace: @unchecked Sendable {
    public let frame: CGRect
    public let hasTrackingID: Bool
    public let trackingID: Int
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
    private let landmarks: [VisionFaceLandmark]
    private let contours: [VisionFaceContour]

    public func landmark(ofType type: FaceLandmarkType) -> VisionFaceLandmark? {
        landmarks.first { $0.type == type }
    }

    public func contour(ofType type: FaceContourType) -> VisionFaceContour? {
        if type == .all {
            return contours.isEmpty ? nil : VisionFaceContour(type: .all, points: contours.flatMap(\.points))
        }
        return contours.first { $0.type == type }
    }

    init(_ face: VisageMLKit.Face) {
        frame = face.frame
        (hasTrackingID, trackingID) = (face.hasTrackingID, face.trackingID)
        (hasHeadEulerAngleY, headEulerAngleY) = (face.hasHeadEulerAngleY, face.headEulerAngleY)
        (hasHeadEulerAngleZ, headEulerAngleZ) = (face.hasHeadEulerAngleZ, face.headEulerAngleZ)
        (hasSmilingProbability, smilingProbability) = (face.hasSmilingProbability, face.smilingProbability)
        (hasLeftEyeOpenProbability, leftEyeOpenProbability) = (face.hasLeftEyeOpenProbability, face.leftEyeOpenProbability)
        (hasRightEyeOpenProbability, rightEyeOpenProbability) = (face.hasRightEyeOpenProbability, face.rightEyeOpenProbability)
        landmarks = face.landmarks.map {
            VisionFaceLandmark(type: FaceLandmarkType(rawValue: $0.type.rawValue), position: VisionPoint(x: $0.position.x, y: $0.position.y))
        }
        contours = face.contours.map {
            VisionFaceContour(type: FaceContourType(rawValue: $0.type.rawValue), points: $0.points.map { VisionPoint(x: $0.x, y: $0.y) })
        }
    }
}
