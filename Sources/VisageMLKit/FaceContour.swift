/// ML Kit's `FaceContourType`: the fifteen contours, each with ML Kit's fixed point count. Left and
/// right are the subject's.
public struct FaceContourType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

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

/// ML Kit's `FaceContour`: one contour's type and points.
public final class FaceContour: Sendable {
    public let type: FaceContourType
    public let points: [VisionPoint]

    init(type: FaceContourType, points: [VisionPoint]) {
        (self.type, self.points) = (type, points)
    }
}
