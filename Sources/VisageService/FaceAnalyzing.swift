import Foundation
import Visage

/// The analysis the routes call, behind a protocol so that tests can put a deliberately slow fake in
/// its place (overload, deadline and cancellation tests) instead of timing the real models.
///
/// Every method runs synchronously on an inference thread, or on the request's own thread for brief work
/// (``isBrief(faces:data:)``, ``Admission/run(deadline:queueing:here:waited:_:)``), and calls
/// `checkpoint.stage(_:)` where each stage ends, which records its time and stops the work when the
/// request is cancelled or out of time. Errors are the library's typed errors; the service maps them
/// through ``ErrorRecord``.
public protocol FaceAnalyzing: Sendable {
    /// Loads and warms the models; `/readyz` answers 200 once it returns.
    func warmUp() throws

    /// The faces in one encoded image, as `visage detect --json` reports them.
    func faces(in data: Data, name: String, options: FaceOptions, limits: DecodeLimits, checkpoint: inout Checkpoint) throws -> FacesRecord

    /// Contours of one encoded image, as JSON, SVG or PNG.
    func contours(in data: Data, name: String, options: ContourOptions, format: ContourOutput, limits: DecodeLimits, checkpoint: inout Checkpoint) throws -> Rendered

    /// The image with its faces drawn in, PNG or SVG.
    func annotate(_ data: Data, options: FaceOptions, format: AnnotationOutput, limits: DecodeLimits, checkpoint: inout Checkpoint) throws -> Rendered

    /// A tracker for one WebSocket connection's frames.
    func makeTracker(_ options: TrackOptions) throws -> any FrameTracking

    /// Whether ``faces(in:name:options:limits:checkpoint:)`` on `data` with `options` takes a
    /// few milliseconds at most between checkpoints, so it may run on the request's own thread (its
    /// 504 or cancellation then waits for the next checkpoint). False unless an analyzer knows better.
    func isBrief(faces options: FaceOptions, data: Data) -> Bool
}

extension FaceAnalyzing {
    public func isBrief(faces options: FaceOptions, data: Data) -> Bool { false }
}

/// One connection's tracker: frames in order, each decoded and tracked.
public protocol FrameTracking: AnyObject {
    func track(_ data: Data, index: Int, time: Double, limits: DecodeLimits, checkpoint: inout Checkpoint) throws -> TrackingFrameRecord
}

/// What decoding may allocate.
public struct DecodeLimits: Sendable {
    public var maxPixels: Int
    public init(maxPixels: Int) { self.maxPixels = maxPixels }
}

/// A response body and its media type.
public struct Rendered: Sendable {
    public var data: Data
    public var contentType: String
    public init(data: Data, contentType: String) { (self.data, self.contentType) = (data, contentType) }
}

/// `POST /v1/faces` options, as the CLI's `detect` flags.
public struct FaceOptions: Sendable, Equatable {
    public var mode: FaceDetectorOptions.PerformanceMode = .fast
    /// Fraction of the image width, 0…1.
    public var minFaceSize = 0.1
    /// At most this many faces, the most confident; nil keeps all.
    public var maxFaces: Int?
    public var features: FaceFeatures = []
    public init() {}

    var detector: FaceDetector {
        FaceDetector(options: .init(
            performanceMode: mode, landmarkMode: features.contains(.landmarks) ? .all : .none,
            contourMode: features.contains(.contours) ? .all : .none,
            classificationMode: features.contains(.classify) ? .all : .none, minFaceSize: minFaceSize))
    }
}

/// `POST /v1/contours` options: `DetectContoursRequest`'s parameters, plus contour art when `art` is set.
public struct ContourOptions: Sendable {
    public var request = DetectContoursRequest()
    /// Ramer–Douglas–Peucker tolerance, normalized units; nil keeps every point (art: 0.001).
    public var epsilon: Float?
    public var art: ContourArt?
    /// Draw over the image instead of a white canvas (SVG and PNG).
    public var overlay = false
    public init() {}
}

public enum ContourOutput: String, Sendable { case json, svg, png }
public enum AnnotationOutput: String, Sendable { case png, svg }

/// `/v1/track` options, the first text message of a connection.
public struct TrackOptions: Sendable, Equatable, Codable {
    public var debounce = 1.0
    public var maxFaces = 1
    public var mirrored = false
    public var attention = TrackAttention()
    public init() {}
}

/// `/v1/track`'s `attention` options, as `visage track`'s flags and ``AttentionOptions``: the cones in
/// degrees (0 or null ignores the eyes or the head), the smallest eye openness in iris diameters (0 or
/// null ignores the lids) and how long watching or not must last.
public struct TrackAttention: Sendable, Equatable, Codable {
    public var gazeCone: Double? = 22
    public var headCone: Double? = 30
    public var eyeOpenness: Double? = 0.5
    public var minimumDuration = 0.5
    public init() {}

    /// A field left out keeps its default; null turns a cone off.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.gazeCone) { gazeCone = try container.decodeIfPresent(Double.self, forKey: .gazeCone) }
        if container.contains(.headCone) { headCone = try container.decodeIfPresent(Double.self, forKey: .headCone) }
        if container.contains(.eyeOpenness) { eyeOpenness = try container.decodeIfPresent(Double.self, forKey: .eyeOpenness) }
        minimumDuration = try container.decodeIfPresent(Double.self, forKey: .minimumDuration) ?? minimumDuration
    }

    /// The library's options: a cone of 0 or nil is off.
    public var options: AttentionOptions {
        AttentionOptions(
            gazeCone: gazeCone.flatMap { $0 > 0 ? $0 : nil }, headCone: headCone.flatMap { $0 > 0 ? $0 : nil },
            eyeOpenness: eyeOpenness.flatMap { $0 > 0 ? $0 : nil }, minimumDuration: minimumDuration)
    }

    /// The first field out of range, as the message to send back.
    var problem: String? {
        for (name, cone) in [("gazeCone", gazeCone), ("headCone", headCone)] {
            if let cone, !(cone.isFinite && (0...180).contains(cone)) {
                return "attention.\(name) \(cone) must be in 0…180 degrees (0 or null ignores it)"
            }
        }
        if let eyeOpenness, !(eyeOpenness.isFinite && (0...10).contains(eyeOpenness)) {
            return "attention.eyeOpenness \(eyeOpenness) must be in 0…10 iris diameters (0 or null ignores it)"
        }
        guard minimumDuration.isFinite, (0...3600).contains(minimumDuration) else {
            return "attention.minimumDuration \(minimumDuration) must be in 0…3600 seconds"
        }
        return nil
    }
}
