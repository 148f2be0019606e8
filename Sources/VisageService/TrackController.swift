import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Visage

/// WebSocket `/v1/track`: binary messages are frames (JPEG or PNG), text messages are options
/// (`{"debounce", "maxFaces", "mirrored", "attention"}`, before the first frame) or the next frame's time
/// (`{"time": seconds}`). Each processed frame is answered with one text message, a
/// ``TrackingFrameRecord`` with its events and `skipped`.
///
/// At most one frame waits per connection: a frame arriving while another waits replaces it, and the
/// next answer's `skipped` counts the frames dropped so. Frames run on the same inference slots as
/// HTTP requests. On shutdown the connection is closed with a close frame (swift-websocket does this
/// on graceful shutdown).
struct TrackController {
    let gate: AnalysisGate
    let maxMessageBytes: Int
    let connections: ConnectionCount

    /// The answer when the WebSocket router declines an upgrade (it cannot send a body of its own): the
    /// tracker limit as 503, anything else that is no upgrade as 400.
    func addRefusals(to router: Router<ServiceRequestContext>) {
        let connections = self.connections
        router.get("v1/track") { _, _ -> Response in
            if connections.current >= connections.limit {
                var headers = HTTPFields()
                headers[.retryAfter] = "\(gate.admission.retryAfterSeconds)"
                throw ServiceError(.overloaded, "\(connections.limit) tracking connections are open; retry later", headers: headers)
            }
            throw ServiceError(.badRequest, "/v1/track is a WebSocket: send Connection: Upgrade and Upgrade: websocket")
        }
    }

    /// The WebSocket route. Refusals after the upgrade are close frames (a declined upgrade has no body to
    /// explain itself): 1008 for a missing or wrong API key, 1013 (try again later) beyond the connection limit.
    func add(to router: Router<ServiceRequestContext>, apiKey: String?) {
        let connections = self.connections
        router.ws("v1/track") { inbound, outbound, context in
            context.requestContext.releaseWebSocket()
            if let apiKey, !APIKeyMiddleware.authorized(context.request, key: apiKey) {
                try await outbound.close(.policyViolation, reason: "unauthorized: send the API key in X-API-Key or Authorization: Bearer")
                return
            }
            guard connections.open() else {
                try await outbound.close(.unknown(1013), reason: "\(connections.limit) tracking connections are open; try again later")
                return
            }
            gate.metrics.webSocketOpened()
            defer {
                connections.close()
                gate.metrics.webSocketClosed()
            }
            try await session(inbound: inbound, outbound: outbound)
        }
    }

    /// Error messages a connection sends, in the service's error shape, with the frame they concern.
    struct FrameError: Encodable {
        var error: ErrorRecord
        var frame: Int?
    }

    /// What a text message may carry.
    struct Control: Decodable {
        var time: Double?
        var debounce: Double?
        var maxFaces: Int?
        var mirrored: Bool?
        var attention: TrackAttention?
    }

    private func session(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let mailbox = FrameMailbox()
        let (signal, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let gate = self.gate
        let maxMessageBytes = self.maxMessageBytes
        try await withThrowingTaskGroup(of: Void.self) { group in
            // The processor: the newest waiting frame, one at a time, answered in order.
            group.addTask {
                var tracker: TrackerBox?
                for await _ in signal {
                    guard let (frame, skipped) = mailbox.take() else { continue }
                    let started = ContinuousClock.now
                    do {
                        if tracker == nil { tracker = TrackerBox(try gate.analyzer.makeTracker(mailbox.options)) }
                        let box = tracker!
                        let limits = gate.limits
                        let (record, timings) = try await gate.admission.run(deadline: started + gate.deadline, queueing: false) { checkpoint in
                            try box.tracker.track(frame.data, index: frame.index, time: frame.time, limits: limits, checkpoint: &checkpoint)
                        }
                        gate.metrics.stages(timings)
                        gate.metrics.framesProcessed()
                        gate.metrics.framesSkipped(skipped)
                        var answer = record
                        answer.skipped = skipped
                        try await outbound.write(.text(String(decoding: try SortedJSON.encode(answer), as: UTF8.self)))
                    } catch is CancellationError {
                        return
                    } catch {
                        let record = ServiceError(from: error).record
                        try await outbound.write(.text(String(decoding: try SortedJSON.encode(FrameError(error: record, frame: frame.index)), as: UTF8.self)))
                    }
                }
            }
            // The reader: options, times and frames, never more than one frame kept.
            let start = ContinuousClock.now
            var nextTime: Double?
            var index = 0
            defer { wake.finish() }
            for try await message in inbound.messages(maxSize: maxMessageBytes) {
                switch message {
                case .text(let text):
                    let (time, problem) = Self.apply(text, to: mailbox)
                    if let time { nextTime = time }
                    if let problem {
                        try await outbound.write(.text(String(decoding: try SortedJSON.encode(FrameError(error: problem)), as: UTF8.self)))
                    }
                case .binary(let buffer):
                    let time = nextTime ?? (ContinuousClock.now - start).seconds
                    nextTime = nil
                    mailbox.put(Frame(data: Data(buffer: buffer), index: index, time: time))
                    index += 1
                    wake.yield()
                }
            }
            wake.finish()
            try await group.waitForAll()
        }
    }

    /// A text message: the next frame's time, or options for `mailbox`; the error to send back, if any.
    static func apply(_ text: String, to mailbox: FrameMailbox) -> (time: Double?, error: ErrorRecord?) {
        guard let control = try? JSONDecoder().decode(Control.self, from: Data(text.utf8)) else {
            return (nil, ErrorRecord(code: .badRequest, message: "text messages are JSON: {\"time\": seconds} or options {\"debounce\", \"maxFaces\", \"mirrored\", \"attention\"}"))
        }
        let time = control.time.flatMap { $0.isFinite ? $0 : nil }
        guard control.debounce != nil || control.maxFaces != nil || control.mirrored != nil || control.attention != nil else { return (time, nil) }
        var options = mailbox.options
        options.debounce = control.debounce ?? options.debounce
        options.maxFaces = control.maxFaces ?? options.maxFaces
        options.mirrored = control.mirrored ?? options.mirrored
        options.attention = control.attention ?? options.attention
        return (time, mailbox.setOptions(options))
    }

    struct Frame: Sendable {
        var data: Data
        var index: Int
        var time: Double
    }

    /// The one frame waiting, the count of frames it replaced, and the connection's options.
    final class FrameMailbox: @unchecked Sendable {
        private let lock = NSLock()
        private var frame: Frame?
        private var skipped = 0
        private var started = false
        private var storedOptions = TrackOptions()

        var options: TrackOptions { lock.withLock { storedOptions } }

        /// Options apply until the first frame; later ones are refused (the tracker exists by then).
        func setOptions(_ options: TrackOptions) -> ErrorRecord? {
            guard (1...16).contains(options.maxFaces) else {
                return ErrorRecord(code: .invalidParameter, message: "maxFaces \(options.maxFaces) must be in 1…16")
            }
            guard options.debounce.isFinite, (0...3600).contains(options.debounce) else {
                return ErrorRecord(code: .invalidParameter, message: "debounce \(options.debounce) must be in 0…3600 seconds")
            }
            if let problem = options.attention.problem { return ErrorRecord(code: .invalidParameter, message: problem) }
            return lock.withLock {
                guard !started else {
                    return ErrorRecord(code: .invalidParameter, message: "options must come before the first frame")
                }
                storedOptions = options
                return nil
            }
        }

        func put(_ new: Frame) {
            lock.withLock {
                started = true
                if frame != nil { skipped += 1 }
                frame = new
            }
        }

        func take() -> (Frame, skipped: Int)? {
            lock.withLock {
                guard let frame else { return nil }
                defer { (self.frame, skipped) = (nil, 0) }
                return (frame, skipped)
            }
        }
    }

    /// A connection's tracker, used by its processor task alone.
    final class TrackerBox: @unchecked Sendable {
        let tracker: any FrameTracking
        init(_ tracker: any FrameTracking) { self.tracker = tracker }
    }
}

/// Open tracking connections, against the limit.
final class ConnectionCount: @unchecked Sendable {
    let limit: Int
    private let lock = NSLock()
    private var count = 0

    init(limit: Int) { self.limit = limit }
    var current: Int { lock.withLock { count } }

    func open() -> Bool {
        lock.withLock {
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func close() { lock.withLock { count -= 1 } }
}
