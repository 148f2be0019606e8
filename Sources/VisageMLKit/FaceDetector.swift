internal import Visage

/// ML Kit's callback: the faces, or nil and the error.
public typealias FaceDetectionCallback = ([Face]?, (any Error)?) -> Void

/// ML Kit's `FaceDetector`, a thin layer over Visage's `FaceDetector` (the same detector, mesh and
/// classification; no pipeline of its own).
///
/// ```swift
/// let faceDetector = FaceDetector.faceDetector(options: options)
/// let faces = try faceDetector.results(in: visionImage)          // synchronous
/// faceDetector.process(visionImage) { faces, error in … }         // asynchronous
/// ```
/// What ML Kit adds to Visage's detector, and how this layer does it:
/// - **Tracking IDs** (``FaceDetectorOptions/isTrackingEnabled``): each call is a frame 1/30 s after the
///   previous one; faces are matched to the previous calls' by overlap of constant-velocity predictions
///   (Visage's `TrackAssociator`), so a face keeps its ID while it stays in view, and one missing for
///   more than 15 calls gets a new ID.
/// - **Contours** for the most prominent (largest) face only. In fast mode with contours and neither
///   landmarks nor classification, ML Kit reports that face alone, without Euler angles or tracking ID;
///   so does this layer.
/// - ``process(_:completion:)`` calls back on a serial queue of the detector's own, in call order, not
///   on the main thread as on iOS: Linux programs seldom run a main loop. ``results(in:)`` may be called
///   from any thread.
///
/// Errors are `NSError`s in the domain `com.google.mlkit`, their `userInfo["VisageErrorCode"]` Visage's stable error
/// code (the table the CLI and the service use), their description Visage's message.
public final class FaceDetector: @unchecked Sendable {
    private struct Settings: Sendable {
        var options: Visage.FaceDetectorOptions
        var tracking: Bool
        /// ML Kit's contour-only fast mode: one face, no angles, no tracking.
        var prominentOnly: Bool
    }

    private let settings: Settings
    private let lock = NSLock()
    private var associator = TrackAssociator(maximumGap: 16.5 / 30)
    private var callCount = 0
    private let queue = DispatchQueue(label: "FaceDetector.process")

    private init(options: FaceDetectorOptions) {
        let contours = options.contourMode == .all
        settings = Settings(
            options: Visage.FaceDetectorOptions(
                performanceMode: options.performanceMode == .accurate ? .accurate : .fast,
                landmarkMode: options.landmarkMode == .all ? .all : .none,
                contourMode: contours ? .all : .none,
                classificationMode: options.classificationMode == .all ? .all : .none,
                minFaceSize: Double(options.minFaceSize)),
            tracking: options.isTrackingEnabled,
            prominentOnly: contours && options.performanceMode != .accurate && options.landmarkMode != .all
                && options.classificationMode != .all)
    }

    /// A detector with a copy of `options`.
    public static func faceDetector(options: FaceDetectorOptions) -> FaceDetector {
        FaceDetector(options: options)
    }

    /// A detector with the default options.
    public static func faceDetector() -> FaceDetector {
        FaceDetector(options: FaceDetectorOptions())
    }

    /// The faces in `image`, synchronously.
    public func results(in image: any MLKitCompatibleImage) throws -> [Face] {
        guard let image = image as? VisionImage else {
            throw Self.error(ErrorRecord(code: .invalidParameter, message: "the image is no VisionImage"))
        }
        let found: [Visage.Face]
        do {
            found = try Visage.FaceDetector(options: settings.options).process(image.visageImage)
        } catch {
            throw Self.error(ErrorRecord(error))
        }
        let prominent = found.indices.max { found[$0].frame.width * found[$0].frame.height < found[$1].frame.width * found[$1].frame.height }
        let kept = settings.prominentOnly ? prominent.map { [$0] } ?? [] : Array(found.indices)
        let ids = settings.tracking && !settings.prominentOnly ? track(kept.map { found[$0].frame }) : nil
        return kept.enumerated().map { position, index in
            Face(found[index], trackingID: ids?[position], angles: !settings.prominentOnly, contours: index == prominent)
        }
    }

    /// The faces in `image`, passed to `completion` on the detector's serial queue.
    public func process(_ image: any MLKitCompatibleImage, completion: @escaping FaceDetectionCallback) {
        let call = PendingCall(image: image, completion: completion)
        queue.async { [self] in
            do {
                call.completion(try results(in: call.image), nil)
            } catch {
                call.completion(nil, error)
            }
        }
    }

    /// Tracking IDs for this call's faces, the call being a frame 1/30 s after the last.
    private func track(_ frames: [CGRect]) -> [Int] {
        lock.lock()
        defer { lock.unlock() }
        callCount += 1
        return associator.associate(frames, at: Double(callCount) / 30)
    }

    static func error(_ record: ErrorRecord) -> NSError {
        NSError(domain: "com.google.mlkit", code: 1, userInfo: [NSLocalizedDescriptionKey: record.message, "VisageErrorCode": record.code.rawValue])
    }
}

/// Hands the caller's image and callback to the detector's queue, their only user from then on.
private struct PendingCall: @unchecked Sendable {
    let image: any MLKitCompatibleImage
    let completion: FaceDetectionCallback
}
