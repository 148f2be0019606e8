import Foundation
import Hummingbird
import Visage

/// The path every analysis request takes, in this order, so that refusing is always cheaper than working:
///
/// 1. `Content-Type` (415) and a declared `Content-Length` (413), from the headers alone;
/// 2. 503 with `Retry-After` when every admission place is taken, before any body byte is read;
/// 3. the body, within the byte limit (413), the slow-body timeout (408) and the shared ``BodyBudget``
///    (503), holding no admission place, so slow bodies cannot starve complete requests;
/// 4. admission, once the body is complete (503 with `Retry-After` if the places filled meanwhile);
/// 5. the work, on an inference slot, stopped between stages at the deadline (504) or when the client
///    goes away.
struct AnalysisGate: Sendable {
    let admission: Admission
    let reader: RequestBodyReader
    let bodies: BodyBudget
    let deadline: Duration
    let limits: DecodeLimits
    let metrics: ServiceMetrics
    let analyzer: any FaceAnalyzing

    /// Runs `handle` with the request's body kind and bytes, within the slow-body timeout and the
    /// deadline; a client that goes away cancels it (``ClientClosedRequest``). The connection stays open
    /// for the next request, unless the answer comes before the body was read and reading the rest would
    /// cost more than a new connection (``closesUnread(_:readingStarted:)``): then it says
    /// `Connection: close` and the connection is closed without reading the rest (``ConnectionCloseHandler``).
    func serve(
        _ request: Request, context: ServiceRequestContext, allowed: Set<String>,
        _ handle: @escaping @Sendable (BodyKind, ByteBuffer) async throws -> Response
    ) async throws -> Response {
        let (started, arrived) = (Flag(), Flag())
        do {
            return try await serve(request, context: context, allowed: allowed, started: started, arrived: arrived, handle)
        } catch let error where !(error is ClientClosedRequest) && !arrived.isSet && Self.closesUnread(request, readingStarted: started.isSet) {
            var refusal = ServiceError(from: error)
            refusal.headers[.connection] = "close"
            throw refusal
        }
    }

    /// Bodies up to this size are read through after an early answer, to keep the connection: measured
    /// with wrk retrying 503s at once (load 9–10), a refusal that read its 68 KB body cost the server about
    /// 56 µs of CPU and one that closed the connection about 290 µs, the client's new connection included.
    /// Larger bodies (a 20 MiB upload is 300 × 68 KB) are cheaper to close on, as Go's server does past 256 KB.
    static let drainLimit = 256 << 10

    /// Whether an answer given before the body was read must close the connection: the body is larger
    /// than ``drainLimit`` or of unknown length (chunked), or it was being received when the answer came
    /// (too slow, past the limit, past the budget: reading the rest would wait on that client).
    static func closesUnread(_ request: Request, readingStarted: Bool) -> Bool {
        closesUnread(request.headers, readingStarted: readingStarted)
    }

    static func closesUnread(_ headers: HTTPFields, readingStarted: Bool) -> Bool {
        guard let declared = headers[.contentLength] else { return headers[.transferEncoding] != nil }
        guard let length = Int(declared), length > 0 else { return false }
        return readingStarted || length > drainLimit
    }

    private func serve(
        _ request: Request, context: ServiceRequestContext, allowed: Set<String>, started: Flag, arrived: Flag,
        _ handle: @escaping @Sendable (BodyKind, ByteBuffer) async throws -> Response
    ) async throws -> Response {
        let kind = try BodyKind(request, allowed: allowed)
        try reader.checkDeclaredLength(request)
        try admission.refuseIfFull()
        let deadline = context.arrival + self.deadline
        let bodyDeadline = context.arrival + reader.timeout
        let (reader, bodies, admission, body, connection) = (self.reader, self.bodies, self.admission, request.body, context.connection)
        let (timing, arrival) = (context.timing, context.arrival)
        // The first of the work's answer, the body's timeout, the deadline and the client's leaving. The work
        // is the only task started; the timers and the watch call back (RequestTimers, ConnectionWatch).
        let outcome = ResumeOnce<Response>()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    started.set()
                    let bytes = try await reader.read(body, budget: bodies)
                    arrived.set()
                    timing.record("body", ContinuousClock.now - arrival)
                    try admission.admit()
                    defer { admission.leave() }
                    outcome.resume(with: .success(try await handle(kind, bytes)))
                } catch {
                    outcome.resume(with: .failure(error))
                }
            }
            let timers = RequestTimers.shared
            let deadlineTimer = timers.schedule(at: deadline) {
                outcome.resume(with: .failure(ServiceError(.deadlineExceeded, "the request did not finish within its deadline")))
            }
            let bodyTimer = bodyDeadline < deadline ? timers.schedule(at: bodyDeadline) {
                if !arrived.isSet { outcome.resume(with: .failure(RequestBodyReader.timedOut(reader.timeout))) }
            } : nil
            connection?.whenGone { outcome.resume(with: .failure(ClientClosedRequest())) }
            defer {
                timers.cancel(deadlineTimer)
                if let bodyTimer { timers.cancel(bodyTimer) }
                connection?.stopWatching()
                group.cancelAll()
            }
            return try await withCheckedThrowingContinuation { outcome.set($0) }
        }
    }

    /// Runs CPU work on an inference slot, recording its stages' times; `brief` work runs on the
    /// request's own thread (``Admission/run(deadline:queueing:here:waited:_:)``).
    func run<T: Sendable>(
        _ context: ServiceRequestContext, brief: Bool = false, _ work: @escaping @Sendable (inout Checkpoint) throws -> T
    ) async throws -> (value: T, timings: [StageTiming]) {
        let result = try await admission.run(
            deadline: context.arrival + deadline, here: brief, waited: { context.timing.record("queue", $0) }, work)
        metrics.stages(result.timings)
        context.timing.record(result.timings)
        return result
    }
}

/// Set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

extension Response {
    /// A JSON response of `value`, encoded as the CLI encodes.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try SortedJSON.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func data(_ data: Data, contentType: String) -> Response {
        Response(status: .ok, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The media type a client asked for in `Accept`, among `offered` (first is the default).
func negotiate(_ request: Request, offered: [String]) -> String {
    let accept = (request.headers[.accept] ?? "").lowercased()
    for item in accept.split(separator: ",") {
        let type = HeaderParameters(String(item)).value
        if let match = offered.first(where: { $0 == type }) { return match }
        if type.hasSuffix("/*"), let match = offered.first(where: { $0.hasPrefix(type.dropLast()) }) { return match }
    }
    return offered[0]
}
