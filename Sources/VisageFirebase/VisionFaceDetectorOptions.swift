/// Firebase's `VisionFaceDetectorPerformanceMode`.
public enum VisionFaceDetectorPerformanceMode: UInt, Sendable, Hashable {
    case fast = 1
    case accurate = 2
}

/// Firebase's `VisionFaceDetectorLandmarkMode`.
public enum VisionFaceDetectorLandmarkMode: UInt, Sendable, Hashable {
    case none = 1
    case all = 2
}

/// Firebase's `VisionFaceDetectorClassificationMode`.
public enum VisionFaceDetectorClassificationMode: UInt, Sendable, Hashable {
    case none = 1
    case all = 2
}

/// Firebase's `VisionFaceDetectorContourMode`.
public enum VisionFaceDetectorContourMode: UInt, Sendable, Hashable {
    case none = 1
    case all = 2
}

/// Firebase's `VisionFaceDetectorOptions`, with Firebase's defaults; the same meaning as ML Kit's
/// `FaceDetectorOptions`.
public class VisionFaceDetectorOptions {
    public var performanceMode: VisionFaceDetectorPerformanceMode = .fast
    public var landmarkMode: VisionFaceDetectorLandmarkMode = .none
    public var classificationMode: VisionFaceDetectorClassificationMode = .none
    public var contourMode: VisionFaceDetectorContourMode = .none
    /// The smallest face to report, as the head's width over the image's width (default 0.1).
    public var minFaceSize: CGFloat = 0.1
    public var isTrackingEnabled = false

    public init() {}
}
