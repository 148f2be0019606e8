// ML Kit's option values: NS_TYPED_ENUM structs over Int, with ML Kit's raw values.

/// Speed against reach: `.fast` (default) runs MediaPipe's short-range detector on the whole picture;
/// `.accurate` the full-range detector on the picture and on tiles down to `minFaceSize`.
public struct FaceDetectorPerformanceMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let fast = FaceDetectorPerformanceMode(rawValue: 1)
    public static let accurate = FaceDetectorPerformanceMode(rawValue: 2)
}

/// Whether to locate the ten landmarks (`.none` default, `.all`).
public struct FaceDetectorLandmarkMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let none = FaceDetectorLandmarkMode(rawValue: 1)
    public static let all = FaceDetectorLandmarkMode(rawValue: 2)
}

/// Whether to trace the fifteen contours of the most prominent face (`.none` default, `.all`).
public struct FaceDetectorContourMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let none = FaceDetectorContourMode(rawValue: 1)
    public static let all = FaceDetectorContourMode(rawValue: 2)
}

/// Whether to estimate smiling and eye-open probabilities (`.none` default, `.all`).
public struct FaceDetectorClassificationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let none = FaceDetectorClassificationMode(rawValue: 1)
    public static let all = FaceDetectorClassificationMode(rawValue: 2)
}
