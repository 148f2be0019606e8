/// ML Kit's `FaceLandmarkType`: the ten landmarks. Left and right are the subject's.
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

/// ML Kit's `FaceLandmark`: one landmark's type and position.
public final class FaceLandmark: Sendable {
    public let type: FaceLandmarkType
    public let position: VisionPoint

    init(type: FaceLandmarkType, position: VisionPoint) {
        (self.type, self.position) = (type, position)
    }
}
