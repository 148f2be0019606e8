import Foundation
import VisageImage

/// Tracks faces through successive frames of one sequence, keeping state between them, as Vision's
/// `VNSequenceRequestHandler` and MediaPipe's face-mesh graph in video mode.
///
/// Each tracked face carries its mesh region to the next frame (the box around its landmarks, turned by
/// the outer eye corners 33 → 263, 1.5× — ``MeshRegion/init(tracking:)``), so the mesh model follows it
/// without the detector. The detector runs only when fewer faces are tracked than
/// ``Options/maximumFaces``, when a track was lost this frame (mesh presence ≤ 0.5), or every
/// ``Options/detectionInterval`` frames. Tracking IDs come from ``TrackAssociator`` over the mesh boxes,
/// so a face re-found by the detector keeps its ID.
///
/// ```swift
/// let handler = try SequenceRequestHandler(options: .init(maximumFaces: 2))
/// while let frame = try source.nextFrame() {
///     for face in try handler.perform(on: frame.image, time: frame.time) { print(face.trackingID, face.frame) }
/// }
/// ```
/// Holds model interpreters, so a handler is for one sequence on one task at a time.
public final class SequenceRequestHandler {
    public struct Options: Sendable, Hashable {
        /// Most faces tracked at once (1…16).
        public var maximumFaces: Int
        /// Run the detector at least every this many frames, even when every face is tracked; 0 never.
        public var detectionInterval: Int
        /// The detector used when it runs.
        public var performanceMode: FaceDetectorOptions.PerformanceMode
        /// Longest absence, in media seconds, after which a returning face gets a new ID.
        public var maximumGap: Double

        public init(
            maximumFaces: Int = 1, detectionInterval: Int = 30, performanceMode: FaceDetectorOptions.PerformanceMode = .fast,
            maximumGap: Double = 0.5
        ) {
            (self.maximumFaces, self.detectionInterval, self.performanceMode, self.maximumGap) =
                (maximumFaces, detectionInterval, performanceMode, maximumGap)
        }
    }

    public let options: Options
    /// Frames performed so far.
    public private(set) var frameCount = 0
    /// Frames on which the detector ran.
    public private(set) var detectorRunCount = 0

    private let analyzer: FaceMeshAnalyzer
    private var associator: TrackAssociator
    /// The regions the tracked faces of the last frame hand to this one.
    private var carried: [MeshRegion] = []
    private var framesSinceDetection = 0
    private var lastTime: Double?

    /// Two faces whose mesh boxes overlap this much are one face seen twice.
    static let duplicateOverlap = 0.5

    /// - Throws: ``TrackingError/invalidParameter(name:value:rule:)`` for an option out of range,
    ///   ``TrackingError/landmarks(reason:)`` when the mesh models cannot be loaded.
    public init(options: Options = .init()) throws(TrackingError) {
        guard (1...16).contains(options.maximumFaces) else {
            throw .invalidParameter(name: "maximumFaces", value: "\(options.maximumFaces)", rule: "must be in 1…16")
        }
        guard options.detectionInterval >= 0 else {
            throw .invalidParameter(name: "detectionInterval", value: "\(options.detectionInterval)", rule: "must be 0 (never) or a number of frames")
        }
        guard options.maximumGap.isFinite, options.maximumGap >= 0 else {
            throw .invalidParameter(name: "maximumGap", value: "\(options.maximumGap)", rule: "must be a finite number of seconds ≥ 0")
        }
        self.options = options
        do { analyzer = try FaceMeshAnalyzer() } catch { throw .landmarks(reason: error.description) }
        associator = TrackAssociator(maximumGap: options.maximumGap)
    }

    /// The tracked faces of the frame at media time `time` (seconds): faces followed from the last frame
    /// first, then faces the detector found, by decreasing detector score.
    ///
    /// A frame of another size than the last, or at an earlier time, starts tracking afresh (new IDs).
    /// - Throws: ``TrackingError/invalidParameter(name:value:rule:)`` for a non-finite time,
    ///   ``TrackingError/detection(_:)`` or ``TrackingError/landmarks(reason:)`` when a stage fails; the
    ///   handler's state is then as before the call.
    public func perform(on image: Image, time: Double) throws(TrackingError) -> [TrackedFace] {
        guard time.isFinite else { throw .invalidParameter(name: "time", value: "\(time)", rule: "must be finite") }
        let upright = image.orientation.uprightSize(rawWidth: image.width, rawHeight: image.height)
        var carried = self.carried.filter { $0.imageWidth == upright.width && $0.imageHeight == upright.height }
        if carried.count != self.carried.count || (lastTime.map { time < $0 } ?? false) {
            carried = []
            associator.reset()
        }

        var found: [FaceAnalysis] = []
        var lost = false
        for region in carried {
            if let analysis = try analyze(image, region), !isDuplicate(analysis, of: found) {
                found.append(analysis)
            } else {
                lost = true
            }
        }
        let due = options.detectionInterval > 0 && framesSinceDetection + 1 >= options.detectionInterval
        var detected = false
        if found.count < options.maximumFaces || lost || due {
            detected = true
            let faces: [DetectedFace]
            do {
                faces = try FaceDetectionPipeline.detect(in: image, mode: options.performanceMode)
            } catch {
                throw .detection(error)
            }
            let tracked = found.compactMap { try? MeshRegion(tracking: $0.mesh) }
            for face in faces where found.count < options.maximumFaces {
                guard let region = Self.region(for: face),
                      !tracked.contains(where: { Self.overlap(region, $0) >= Self.duplicateOverlap }),
                      let analysis = try analyze(image, region), !isDuplicate(analysis, of: found)
                else { continue }
                found.append(analysis)
            }
        }

        // Commit only now, so a failure above leaves the state untouched.
        frameCount += 1
        if detected {
            detectorRunCount += 1
            framesSinceDetection = 0
        } else {
            framesSinceDetection += 1
        }
        lastTime = time
        let boxes = found.map { Self.box($0.mesh) }
        let ids = associator.associate(boxes, at: time)
        self.carried = found.compactMap { try? MeshRegion(tracking: $0.mesh) }
        return zip(ids, zip(boxes, found)).map { TrackedFace(trackingID: $0, frame: $1.0, analysis: $1.1) }
    }

    /// Forgets every tracked face, as at a cut; IDs keep counting up.
    public func reset() {
        carried = []
        associator.reset()
        framesSinceDetection = 0
        lastTime = nil
    }

    private func analyze(_ image: Image, _ region: MeshRegion) throws(TrackingError) -> FaceAnalysis? {
        do { return try analyzer.analyze(image, region: region) } catch { throw .landmarks(reason: "\(error)") }
    }

    private func isDuplicate(_ analysis: FaceAnalysis, of found: [FaceAnalysis]) -> Bool {
        let box = Self.box(analysis.mesh)
        return found.contains { TrackAssociator.intersectionOverUnion(box, Self.box($0.mesh)) >= Self.duplicateOverlap }
    }

    /// The detector's region for a face, nil when degenerate: the image pipeline's first region
    /// (``FaceLandmarkPipeline``), the one MediaPipe's FaceLandmarker cuts from a detection in video mode
    /// as in image mode (1.5× the box's width and height, not squared, turned by the eyes), from fast
    /// mode's detection of the face when accurate mode has one (``DetectedFace/meshDetection``).
    package static func region(for face: DetectedFace) -> MeshRegion? {
        try? MeshRegion(detection: face.meshDetection ?? face.detection, imageWidth: face.imageWidth, imageHeight: face.imageHeight)
    }

    /// IoU of two regions' upright squares (rotation ignored), as MediaPipe's `AssociationNormRectCalculator`.
    static func overlap(_ a: MeshRegion, _ b: MeshRegion) -> Double {
        func square(_ r: MeshRegion) -> CGRect { CGRect(x: r.centerX - r.side / 2, y: r.centerY - r.side / 2, width: r.side, height: r.side) }
        return TrackAssociator.intersectionOverUnion(square(a), square(b))
    }

    /// The box around the mesh's surface points (irises lie inside), pixels.
    static func box(_ mesh: FaceMesh) -> CGRect {
        let bounds = mesh.pixelBounds
        return CGRect(x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height)
    }
}
