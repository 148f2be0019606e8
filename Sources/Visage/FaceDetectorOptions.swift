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
    /// Whether the mesh runs again in the region its own first pass gives, up to twice (``MeshRefinement``),
    /// when the detector's box sat off the face. Nil (the default) means on in accurate mode, whose
    /// full-range boxes sit off faces often, and off in fast mode, whose output stays MediaPipe's
    /// FaceLandmarker's. Costs a mesh pass or two per face when on (see the README's figures).
    public var meshRegionRefinement: Bool?
    /// Whether the detector also looks at the picture turned by 90°, 180° and 270° and keeps the faces
    /// found only there (faces on their side or upside down, as in a photo taken with the phone sideways
    /// and no EXIF orientation); their roll is their true in-plane angle. Nil (the default) means on in
    /// accurate mode and off in fast mode. Costs three more short-range detector passes (see the README's figures).
    public var rotationSearch: Bool?

    public init(
        performanceMode: PerformanceMode = .fast, landmarkMode: LandmarkMode = .none, contourMode: ContourMode = .none,
        classificationMode: ClassificationMode = .none, minFaceSize: Double = 0.1, meshRegionRefinement: Bool? = nil,
        rotationSearch: Bool? = nil
    ) {
        self.performanceMode = performanceMode
        self.landmarkMode = landmarkMode
        self.contourMode = contourMode
        self.classificationMode = classificationMode
        self.minFaceSize = minFaceSize
        self.meshRegionRefinement = meshRegionRefinement
        self.rotationSearch = rotationSearch
    }

    /// ``meshRegionRefinement`` with its default resolved.
    var refinesMeshRegions: Bool { meshRegionRefinement ?? (performanceMode == .accurate) }
    /// ``rotationSearch`` with its default resolved.
    var searchesRotations: Bool { rotationSearch ?? (performanceMode == .accurate) }

    /// Whether the face mesh has to run.
    var needsMesh: Bool { landmarkMode == .all || contourMode == .all || classificationMode == .all }
}
