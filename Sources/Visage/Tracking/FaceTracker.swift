/// Frames in, face events out: presence (`.faceDetected`, `.noFaceDetected`, debounced in media time),
/// attention (`.attentionGained`, `.attentionLost`, per face and for anyone; ``AttentionOptions``), and
/// blinks, nods and shakes per tracked face, as an app watching a camera wants them.
///
/// Presence starts unknown and its first state is always reported: `.noFaceDetected` once the stream
/// has gone `debounce` seconds without a face, `.faceDetected` as soon as a face has been in view that
/// long. Faces are reported (in ``FaceTrackingUpdate/faces`` and in events) only while presence is, so
/// every event of a face follows a `.faceDetected`; tracking IDs count the reported faces from 1, and a
/// detection that flickers for less than the debounce uses none. ARKit's face anchor and ML Kit's
/// tracking ID compare as README.md's "Presence and tracking IDs" table shows.
///
/// Time comes from the frames' timestamps, so a file is processed faster than real time with the same
/// events as when it plays. The seed's use case, pausing playback while nobody is watching:
///
/// ```swift
/// let source = RealTimeFrameSource(try FFmpegFrameSource(input: "/dev/video0", inputArguments: ["-f", "v4l2"]))
/// for try await event in FaceTracker.events(from: source) {
///     switch event.kind {
///     case .attentionLost where event.trackingID == nil: player.pause()
///     case .attentionGained where event.trackingID == nil: player.play()
///     case .attentionGained, .attentionLost: break  // one face's
///     case .faceDetected, .noFaceDetected: break
///     case .blink(let eye): print("blink", eye, event.trackingID ?? 0)
///     case .nod(let gesture): print("yes", gesture.amplitude)
///     case .shake(let gesture): print("no", gesture.amplitude)
///     }
/// }
/// ```
/// A tracker is for one sequence on one task at a time; ``process(_:)`` is the synchronous core.
public final class FaceTracker {
    public struct Options: Sendable, Hashable {
        public var handler: SequenceRequestHandler.Options
        /// How long, in media seconds, presence or absence must last before it is reported (default 1);
    /// faces are reported from the moment their presence is.
        public var debounce: Double
        /// Blink coefficient at which an eye counts as closed (default 0.5, ARKit's usual threshold).
        public var blinkThreshold: Float
        /// How far below the threshold the coefficient must fall for the eye to open again.
        public var blinkHysteresis: Float
        /// The frames are mirrored (a front camera's selfie view): left and right are swapped so that
        /// events still name the subject's own eye.
        public var mirrored: Bool
        /// What counts as a nod or a shake.
        public var gestures: HeadGestureOptions
        /// What counts as watching the camera, for `attentionGained` and `attentionLost`; nil for no
        /// attention events.
        public var attention: AttentionOptions?

        public init(
            handler: SequenceRequestHandler.Options = .init(), debounce: Double = 1, blinkThreshold: Float = 0.5,
            blinkHysteresis: Float = 0.15, mirrored: Bool = false, gestures: HeadGestureOptions = .init(),
            attention: AttentionOptions? = .init()
        ) {
            self.handler = handler
            (self.debounce, self.blinkThreshold, self.blinkHysteresis, self.mirrored) = (debounce, blinkThreshold, blinkHysteresis, mirrored)
            self.gestures = gestures
            self.attention = attention
        }
    }

    public let options: Options
    public let handler: SequenceRequestHandler
    private var generator: FaceEventGenerator

    /// - Throws: ``TrackingError/invalidParameter(name:value:rule:)`` for an option out of range,
    ///   ``TrackingError/landmarks(reason:)`` when the models cannot be loaded.
    public init(options: Options = .init()) throws(TrackingError) {
        guard options.debounce.isFinite, options.debounce >= 0 else {
            throw .invalidParameter(name: "debounce", value: "\(options.debounce)", rule: "must be a finite number of seconds ≥ 0")
        }
        guard options.blinkThreshold > 0, options.blinkThreshold < 1 else {
            throw .invalidParameter(name: "blinkThreshold", value: "\(options.blinkThreshold)", rule: "must be in (0, 1)")
        }
        guard options.blinkHysteresis >= 0, options.blinkHysteresis < options.blinkThreshold else {
            throw .invalidParameter(name: "blinkHysteresis", value: "\(options.blinkHysteresis)", rule: "must be in [0, blinkThreshold)")
        }
        let attention = options.attention ?? .init()
        guard attention.minimumDuration.isFinite, attention.minimumDuration >= 0 else {
            throw .invalidParameter(name: "attention.minimumDuration", value: "\(attention.minimumDuration)", rule: "must be a finite number of seconds ≥ 0")
        }
        for (name, cone) in [("attention.gazeCone", attention.gazeCone), ("attention.headCone", attention.headCone)] {
            guard let cone else { continue }
            guard cone.isFinite, cone >= 0, cone <= 180 else {
                throw .invalidParameter(name: name, value: "\(cone)", rule: "must be in 0…180 degrees, or nil to ignore")
            }
        }
        if let openness = attention.eyeOpenness, !(openness.isFinite && openness >= 0) {
            throw .invalidParameter(name: "attention.eyeOpenness", value: "\(openness)", rule: "must be a finite number of iris diameters ≥ 0, or nil to ignore")
        }
        self.options = options
        handler = try SequenceRequestHandler(options: options.handler)
        generator = FaceEventGenerator(
            debounce: options.debounce, blinkThreshold: options.blinkThreshold, hysteresis: options.blinkHysteresis, mirrored: options.mirrored,
            forgetAfter: options.handler.maximumGap, gestures: options.gestures, attention: options.attention)
    }

    /// Tracks the faces of `frame` and returns them with the events this frame completed.
    /// - Throws: ``TrackingError`` when a stage fails; the tracker's state is then as before the call.
    public func process(_ frame: VideoFrame) throws(TrackingError) -> FaceTrackingUpdate {
        let faces = try handler.perform(on: frame.image, time: frame.time)
        let step = generator.step(
            faces.map {
                .init(
                    trackingID: $0.trackingID, eyeBlinkLeft: $0.eyeBlinkLeft, eyeBlinkRight: $0.eyeBlinkRight,
                    pitch: $0.analysis.pose.headEulerAngleX, yaw: $0.analysis.pose.headEulerAngleY,
                    headAngle: $0.analysis.pose.angleFromCamera, gazeAngle: $0.analysis.gaze?.angleFromCamera ?? .nan,
                    eyeOpenness: $0.analysis.eyeOpenness?.larger ?? .nan)
            },
            time: frame.time, frameIndex: frame.index)
        let reported = zip(faces, zip(step.reportedIDs, step.attentive)).compactMap { face, state -> TrackedFace? in
            guard let id = state.0 else { return nil }
            var face = face
            face.trackingID = id
            face.hasAttention = state.1
            return face
        }
        return FaceTrackingUpdate(frameIndex: frame.index, time: frame.time, faces: reported, events: step.events)
    }

    /// The events of every frame of `source`, produced on a background task as the consumer iterates.
    ///
    /// The stream finishes at the end of the source and throws the first ``TrackingError`` (source errors
    /// as ``TrackingError/video(_:)``). The source belongs to the stream from then on.
    public static func events(from source: sending any FrameSource, options: Options = .init()) -> AsyncThrowingStream<FaceTrackingEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: FaceTrackingEvent.self, throwing: (any Error).self)
        let task = Task {
            do throws(TrackingError) {
                let tracker = try FaceTracker(options: options)
                while !Task.isCancelled {
                    let next: VideoFrame?
                    do throws(VideoError) { next = try source.nextFrame() } catch { throw .video(error) }
                    guard let frame = next else { break }
                    for event in try tracker.process(frame).events { continuation.yield(event) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
