/// How ``FaceDetector`` trades speed for reach, as ML Kit's `FaceDetectorOptions`.
///
/// Landmark, contour and classification modes and tracking arrive with the face-mesh stage.
public struct FaceDetectorOptions: Sendable, Hashable {
    public enum PerformanceMode: String, Sendable, Hashable, CaseIterable, Codable {
        /// MediaPipe's short-range detector on the whole picture: a few milliseconds, faces larger
        /// than about a fifth of the picture.
        case fast
        /// MediaPipe's full-range detector on the whole picture and on overlapping tiles down to
        /// `minFaceSize`: slower, finds small faces in large photos.
        case accurate
    }

    public var performanceMode: PerformanceMode
    /// The smallest face to report, as a fraction of the picture's width (ML Kit's definition), 0…1.
    /// Faces narrower are dropped; in accurate mode it also sets how finely the picture is tiled.
    public var minFaceSize: Double

    public init(performanceMode: PerformanceMode = .fast, minFaceSize: Double = 0.1) {
        self.performanceMode = performanceMode
        self.minFaceSize = minFaceSize
    }
}
