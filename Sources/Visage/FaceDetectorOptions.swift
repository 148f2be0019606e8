/// What ``FaceDetector`` looks for and how it trades speed for reach, as ML Kit's `FaceDetectorOptions`.
///
/// Landmarks, contours and classification each need the face mesh (one more network pass per face);
/// any of them also replaces the keypoint estimates of ``Face/headEulerAngleX`` and
/// ``Face/headEulerAngleY`` by the pose fitted to the mesh.
public struct FaceDetectorOptions: Sendable, Hashable {
    public enum PerformanceMode: String, Sendable, Hashable, CaseIterable, Codable {
        /// MediaPipe's short-range detector on the whole picture: a few milliseconds, faces larger
        /// than about a fifth of the picture.
        case fast
        /// MediaPipe's full-range detector on the whole picture and on overlapping tiles down to
        /// `minFaceSize`: slower, finds small faces in large photos.
        case accurate
    }

    /// Whether to locate ML Kit's ten landmarks (``Face/landmark(_:)``).
    public enum LandmarkMode: String, Sendable, Hashable, CaseIterable, Codable {
        case none, all
    }

    /// Whether to trace ML Kit's fifteen contours (``Face/contour(_:)``).
    public enum ContourMode: String, Sendable, Hashable, CaseIterable, Codable {
        case none, all
    }

    /// Whether to estimate ``Face/smilingProbability`` and the eye-open probabilities.
    public enum ClassificationMode: String, Sendable, Hashable, CaseIterable, Codable {
        case none, all
    }

    public var performanceMode: PerformanceMode
    public var landmarkMode: LandmarkMode
    public var contourMode: ContourMode
    public var classificationMode: ClassificationMode
    /// The smallest face to report, as a fraction of the picture's width (ML Kit's definition), 0…1.
    /// Faces narrower are dropped; in accurate mode it also sets how finely the picture is tiled.
    public var minFaceSize: Double

    public init(
        performanceMode: PerformanceMode = .fast, landmarkMode: LandmarkMode = .none, contourMode: ContourMode = .none,
        classificationMode: ClassificationMode = .none, minFaceSize: Double = 0.1
    ) {
        self.performanceMode = performanceMode
        self.landmarkMode = landmarkMode
        self.contourMode = contourMode
        self.classificationMode = classificationMode
        self.minFaceSize = minFaceSize
    }

    /// Whether the face mesh has to run.
    var needsMesh: Bool { landmarkMode == .all || contourMode == .all || classificationMode == .all }
}
