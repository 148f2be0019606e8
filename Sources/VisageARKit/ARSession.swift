internal import Visage

/// ARKit's `ARSession` for face tracking: `run(_:options:)` starts reading the configuration's video on
/// a thread of its own and analysing each frame with Visage's tracker (`SequenceRequestHandler`: detector,
/// face mesh, blendshapes, pose); `pause()` stops it.
///
/// ```swift
/// let session = ARSession()
/// session.delegate = tracker                      // an ARSessionDelegate
/// let configuration = ARFaceTrackingConfiguration()
/// configuration.videoInput = "clip.y4m"           // the one line Linux needs; nil = default camera
/// session.run(configuration)
/// ```
///
/// Delegate calls arrive on ``delegateQueue``, in frame order. When it is nil they arrive on a serial
/// queue of the session's own, not on the main queue as in ARKit: Linux programs seldom run a main
/// loop, and there is no UI to protect. A file is read as fast as frames are analysed, every frame once;
/// a camera or stream keeps only its newest frame while the previous one is analysed. At the end of a
/// file the session stops and calls ``ARSessionObserver/sessionWasInterrupted(_:)``; a failure stops it
/// with ``ARSessionObserver/session(_:didFailWithError:)`` and an ``ARError``.
open class ARSession: @unchecked Sendable {
    /// ARKit's run options.
    public struct RunOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Kept for source compatibility: every run starts tracking afresh (new tracking state, input
        /// from its start).
        public static let resetTracking = RunOptions(rawValue: 1 << 0)
        /// Forget the previous run's anchors (reported to ``ARSessionDelegate/session(_:didRemove:)``).
        public static let removeExistingAnchors = RunOptions(rawValue: 1 << 1)
    }

    public let identifier = UUID()

    private struct State {
        weak var delegate: (any ARSessionDelegate)?
        var delegateQueue: DispatchQueue?
        var configuration: ARConfiguration?
        var currentFrame: ARFrame?
        /// Increases at every run and pause; a worker or delivery of an older generation is stale.
        var generation = 0
        var anchors = FaceAnchorSlots()
    }

    private let lock = NSLock()
    private var state = State()
    private let ownQueue: DispatchQueue

    public init() {
        ownQueue = DispatchQueue(label: "ARSession.delegate")
    }

    private func locked<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// Held weakly, as in ARKit.
    public var delegate: (any ARSessionDelegate)? {
        get { locked { $0.delegate } }
        set { locked { $0.delegate = newValue } }
    }

    /// Where delegate methods run; nil for the session's own serial queue.
    public var delegateQueue: DispatchQueue? {
        get { locked { $0.delegateQueue } }
        set { locked { $0.delegateQueue = newValue } }
    }

    /// The configuration of the current or last run.
    public var configuration: ARConfiguration? { locked { $0.configuration } }

    /// The latest frame delivered to the delegate.
    public var currentFrame: ARFrame? { locked { $0.currentFrame } }

    /// Starts (or restarts) the session with `configuration`, returning at once.
    ///
    /// Problems with the configuration or the input are reported to the delegate, as in ARKit.
    open func run(_ configuration: ARConfiguration, options: RunOptions = []) {
        let (generation, removed) = locked { state -> (Int, [ARFaceAnchor]) in
            state.generation += 1
            state.configuration = configuration
            return (state.generation, options.contains(.removeExistingAnchors) ? state.anchors.removeAll() : [])
        }
        if !removed.isEmpty {
            deliver(generation) { session, delegate in delegate.session(session, didRemove: removed) }
        }
        guard let face = configuration as? ARFaceTrackingConfiguration else {
            fail(generation, ARError(.unsupportedConfiguration, reason: "only ARFaceTrackingConfiguration runs on Linux, not \(type(of: configuration))",
                visageCode: "invalid_parameter"))
            return
        }
        let settings = Settings(face)
        let maximum = ARFaceTrackingConfiguration.supportedNumberOfTrackedFaces
        guard (1...maximum).contains(settings.maximumFaces) else {
            fail(generation, ARError(
                .unsupportedConfiguration,
                reason: "maximumNumberOfTrackedFaces is \(settings.maximumFaces); it must be in 1…\(maximum)",
                visageCode: "invalid_parameter"))
            return
        }
        let thread = Thread { [self] in work(settings, generation: generation) }
        thread.name = "ARSession \(identifier)"
        thread.start()
    }

    /// Stops the session, returning at once: no delegate call of this run starts after `pause()` returns.
    /// Anchors are kept for the next run.
    open func pause() {
        locked { $0.generation += 1 }
    }

    /// What a run needs from its configuration, read once at `run`.
    private struct Settings: Sendable {
        var input: String
        var mirrored: Bool
        var maximumFaces: Int

        init(_ configuration: ARFaceTrackingConfiguration) {
            input = configuration.videoInput ?? VideoSourceOpener.defaultCamera
            mirrored = configuration.isVideoMirrored
            maximumFaces = configuration.maximumNumberOfTrackedFaces
        }
    }

    private func isCurrent(_ generation: Int) -> Bool { locked { $0.generation == generation } }

    /// The run's loop, on its own thread: frame in, anchors out, until paused, ended or failed.
    private func work(_ settings: Settings, generation: Int) {
        let geometry: FaceAnchorGeometry
        let source: any FrameSource
        let handler: SequenceRequestHandler
        do {
            geometry = try FaceAnchorGeometry.shared.get()
            do { source = try VideoSourceOpener.open(settings.input) } catch {
                throw ARError(.sensorUnavailable, reason: "the video input \(settings.input) cannot be opened: \(error)", underlying: error)
            }
            do { handler = try SequenceRequestHandler(options: .init(maximumFaces: settings.maximumFaces)) } catch {
                throw ARError(.sensorFailed, reason: "the face models cannot be loaded: \(error)", underlying: error)
            }
        } catch {
            fail(generation, error as? ARError ?? ARError(.sensorFailed, reason: "\(error)"))
            return
        }
        while isCurrent(generation) {
            do {
                let next: VideoFrame?
                do { next = try source.nextFrame() } catch {
                    throw ARError(.sensorFailed, reason: "the video input \(settings.input) failed: \(error)", underlying: error)
                }
                guard var frame = next else {
                    stop(generation) { session, delegate in delegate.sessionWasInterrupted(session) }
                    return
                }
                if settings.mirrored { frame.image = frame.image.withOrientation(.upMirrored) }
                let faces: [TrackedFace]
                do { faces = try handler.perform(on: frame.image, time: frame.time) } catch {
                    throw ARError(.sensorFailed, reason: "face tracking failed on frame \(frame.index): \(error)", underlying: error)
                }
                publish(faces, time: frame.time, geometry: geometry, generation: generation)
            } catch {
                fail(generation, error as? ARError ?? ARError(.sensorFailed, reason: "\(error)"))
                return
            }
        }
    }

    /// Updates the anchors with one frame's faces and delivers the frame, the new anchors and the rest.
    private func publish(_ faces: [TrackedFace], time: Double, geometry: FaceAnchorGeometry, generation: Int) {
        let update = locked { state -> (frame: ARFrame, added: [ARFaceAnchor], updated: [ARFaceAnchor])? in
            guard state.generation == generation else { return nil }
            let (added, updated) = state.anchors.update(with: faces, geometry: geometry)
            return (ARFrame(timestamp: time, anchors: state.anchors.anchors), added, updated)
        }
        guard let update else { return }
        deliver(generation) { session, delegate in
            session.locked { $0.currentFrame = update.frame }
            delegate.session(session, didUpdate: update.frame)
            if !update.added.isEmpty { delegate.session(session, didAdd: update.added) }
            if !update.updated.isEmpty { delegate.session(session, didUpdate: update.updated) }
        }
    }

    private func fail(_ generation: Int, _ error: ARError) {
        stop(generation) { session, delegate in delegate.session(session, didFailWithError: error) }
    }

    /// Tells the delegate how the run `generation` ended (its thread returns right after). Deliveries
    /// already queued for this run still happen first; a `run` or `pause` since drops them all.
    private func stop(_ generation: Int, _ body: @escaping @Sendable (ARSession, any ARSessionDelegate) -> Void) {
        deliver(generation, body)
    }

    /// Runs `body` with the delegate on the delegate queue, unless the session moved to another run or
    /// pause in between.
    private func deliver(_ generation: Int, _ body: @escaping @Sendable (ARSession, any ARSessionDelegate) -> Void) {
        let queue = delegateQueue ?? ownQueue
        queue.async { [self] in
            let delegate = locked { state -> (any ARSessionDelegate)? in state.generation == generation ? state.delegate : nil }
            guard let delegate else { return }
            body(self, delegate)
        }
    }
}
