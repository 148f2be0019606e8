import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import Visage
import NIOCore
import NIOHTTPTypes

/// The 503 of a full service, answered on the event loop from the request's head.
///
/// Under overload most answers are refusals, and each one that took the ordinary path (a task on the
/// service's executor, routing, the middleware, the error's JSON, a hop back to the event loop to write)
/// cost 50–70 µs of CPU taken from the inferences running beside it. This policy answers the same 503,
/// byte for byte the same body and headers, with the same metrics and log (``RefusalLog``), from the channel handler
/// that sees the head (``EarlyRefusalHandler``), and only when the ordinary path would answer exactly that:
/// an analysis route and method, an accepted `Content-Type`, a declared length within the body limit and
/// small enough to read through (``AnalysisGate/drainLimit``), the API key when one is set, no
/// `Connection: close`, and every admission place taken. Anything else goes the ordinary way.
struct EarlyRefusal: Sendable {
    let admission: Admission
    /// Route path → the body kinds it reads (``BodyKind``), from the controllers' own ``AnalysisRoute``s.
    let routes: [String: Set<String>]
    let maxBodyBytes: Int
    let apiKey: String?
    let metrics: ServiceMetrics
    let refusals: RefusalLog
    /// The refusal's JSON body, encoded once: the same bytes ``ServiceError/response(from:context:)`` makes.
    let body: ByteBuffer
    let retryAfter: String
    let status: HTTPResponse.Status
    /// How long a connection answered 503 with `Retry-After` is not read again (``ServiceConfiguration/refusalPause``).
    let refusalPause: TimeAmount?

    init(
        admission: Admission, routes: [AnalysisRoute], maxBodyBytes: Int, apiKey: String?, metrics: ServiceMetrics, refusals: RefusalLog,
        refusalPause: Duration? = nil
    ) {
        (self.admission, self.maxBodyBytes, self.metrics, self.refusals) = (admission, maxBodyBytes, metrics, refusals)
        self.refusalPause = refusalPause.map { .nanoseconds(ServiceMetrics.nanoseconds($0)) }
        self.routes = Dictionary(routes.map { ($0.path, $0.kinds) }, uniquingKeysWith: { first, _ in first })
        self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
        let error = admission.overloaded()
        self.retryAfter = error.headers[.retryAfter] ?? "1"
        self.status = error.status
        let data = (try? SortedJSON.encode(ServiceError.ErrorBody(error: error.record))) ?? Data()
        self.body = ByteBuffer(bytes: data)
    }

    /// The route of `head` when the ordinary path would refuse it with 503 `overloaded` now, else nil.
    /// Fullness first: it is one lock, and a service with a free place answers everything the ordinary way.
    func refusedRoute(_ head: HTTPRequest) -> String? {
        guard head.method == .post, admission.isFull, let fullPath = head.path else { return nil }
        let path = fullPath.firstIndex(of: "?").map { String(fullPath[..<$0]) } ?? fullPath
        guard let allowed = routes[path] else { return nil }
        let headers = head.headerFields
        if let connection = headers[.connection], connection.lowercased().contains("close") { return nil }
        if let apiKey, !APIKeyMiddleware.authorized(headers, key: apiKey) { return nil }
        guard accepts(headers[.contentType] ?? "", path: path, allowed) else { return nil }
        if headers[.transferEncoding] != nil { return nil }
        if let declared = headers[.contentLength] {
            guard let length = Int(declared), length >= 0, length <= maxBodyBytes, length <= AnalysisGate.drainLimit else { return nil }
        }
        return path
    }

    /// Whether ``BodyKind`` reads `contentType` on a route reading `allowed`: remembered for the few
    /// `Content-Type` values clients send (parsing the header was a fifth of a refusal's cost), by route path.
    private func accepts(_ contentType: String, path: String, _ allowed: Set<String>) -> Bool {
        let key = ContentTypeKey(contentType: contentType, path: path)
        if let known = kinds.lock.withLock({ kinds.accepted[key] }) { return known }
        var fields = HTTPFields()
        fields[.contentType] = contentType
        let accepted = (try? BodyKind(headers: fields, allowed: allowed)) != nil
        kinds.lock.withLock { if kinds.accepted.count < 64 { kinds.accepted[key] = accepted } }
        return accepted
    }

    private struct ContentTypeKey: Hashable {
        var contentType: String
        var path: String
    }

    private final class KnownKinds: @unchecked Sendable {
        let lock = NSLock()
        var accepted: [ContentTypeKey: Bool] = [:]
        /// The last head made and the second of its `Date`.
        var head: (second: Int, response: HTTPResponse)?
    }

    private let kinds = KnownKinds()

    /// The refusal's head, as the ordinary path sends it (Hummingbird adds `Date` and `Server`), made once
    /// a second (its `Date` changes then).
    func responseHead() -> HTTPResponse {
        let second = time(nil)
        if let head = kinds.lock.withLock({ kinds.head.flatMap { $0.second == second ? $0.response : nil } }) { return head }
        var fields = HTTPFields()
        fields[.retryAfter] = retryAfter
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = "\(body.readableBytes)"
        fields[.date] = HTTPDate.now()
        fields[.server] = "visage"
        let response = HTTPResponse(status: status, headerFields: fields)
        kinds.lock.withLock { kinds.head = (second, response) }
        return response
    }

    /// Counts the refusal as ``ErrorAndMetricsMiddleware`` does, and logs it through ``RefusalLog``. Not
    /// counted in flight: it is answered within this call.
    func record(route: String, duration: Duration, requestBytes: String?) {
        admission.noteRefusal()
        metrics.request(route: route, method: "POST", status: 503, duration: duration)
        metrics.rejected(ErrorCode.overloaded.rawValue)
        refusals.refused(route: route, method: "POST", requestBytes: requestBytes, duration: duration)
    }
}

/// Answers ``EarlyRefusal``'s 503s on the event loop and drops the refused request's body there, never
/// handing it to Hummingbird; every other request passes through untouched.
///
/// After any 503 with `Retry-After` on its connection (early or ordinary), it holds the connection's reads
/// for ``EarlyRefusal/refusalPause``: the answer goes at once, but what the client sends next waits in the
/// socket until the pause ends (a read asked meanwhile is scheduled for then). A client that honours
/// `Retry-After` never meets it; one that resends at once, as wrk does, is slowed to one request per pause
/// per connection, so a retry storm cannot take the cores the inferences need.
///
/// It refuses only between requests, when every request it passed on has been answered, so answers stay
/// in request order (HTTP/1.1 pipelining). It sits after Hummingbird's `HTTPConnectionStateHandler`
/// (``EarlyRefusalInstaller`` puts it there), so that handler sees the refused request and its answer
/// as it sees any other: keep-alive, the idle timeout and draining behave as for an ordinary answer.
final class EarlyRefusalHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let policy: EarlyRefusal
    /// Requests passed on whose answer has not been written yet.
    private var unanswered = 0
    /// The refused request's body is being dropped.
    private var dropping = false
    /// The connection's watch, told when each head passed on arrived (``ServiceRequestContext/arrival``).
    private var watch: ConnectionWatch?
    /// Reads wait until then (``EarlyRefusal/refusalPause``); a read asked meanwhile is scheduled for then.
    private var pausedUntil: NIODeadline?
    private var pendingRead: Scheduled<Void>?

    init(policy: EarlyRefusal) {
        self.policy = policy
    }

    func handlerAdded(context: ChannelHandlerContext) {
        watch = ConnectionWatch.of(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            let arrival = ContinuousClock.now
            if unanswered == 0, let route = policy.refusedRoute(head) {
                dropping = true
                var response = policy.responseHead()
                let duration = ContinuousClock.now - arrival
                response.headerFields[ServerTiming.name] = ServerTiming.entry("total", nanoseconds: ServiceMetrics.nanoseconds(duration))
                context.write(wrapOutboundOut(.head(response)), promise: nil)
                context.write(wrapOutboundOut(.body(policy.body)), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                policy.record(route: route, duration: duration, requestBytes: head.headerFields[.contentLength])
                pause()
                return
            }
            unanswered += 1
            watch?.headArrived(at: arrival)
            context.fireChannelRead(data)
        case .body:
            if !dropping { context.fireChannelRead(data) }
        case .end:
            if dropping {
                dropping = false
            } else {
                context.fireChannelRead(data)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // What is dropped never reaches the request stream, whose demand would ask for the next read.
        if dropping { read(context: context) }
        context.fireChannelReadComplete()
    }

    /// Holds the reads for the refusal pause, from now.
    private func pause() {
        if let pause = policy.refusalPause { pausedUntil = .now() + pause }
    }

    func read(context: ChannelHandlerContext) {
        if let until = pausedUntil {
            guard NIODeadline.now() >= until else {
                if pendingRead == nil {
                    pendingRead = context.eventLoop.assumeIsolated().scheduleTask(deadline: until) {
                        self.pendingRead = nil
                        self.read(context: context)
                    }
                }
                return
            }
            pausedUntil = nil
        }
        context.read()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        pendingRead?.cancel()
        pendingRead = nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status == .serviceUnavailable && head.headerFields[.retryAfter] != nil:
            // The ordinary path's 503s of a full service (places filled while the body arrived, the queue's
            // timeout, the bodies' budget) pause the connection as the early ones do.
            pause()
        case .end where unanswered > 0:
            unanswered -= 1
            watch?.headArrived(at: nil)
        default:
            break
        }
        context.write(data, promise: promise)
    }
}

/// Puts an ``EarlyRefusalHandler`` right after Hummingbird's `HTTPConnectionStateHandler` when the first
/// request arrives (the HTTP handlers are added only once the connection is known not to be a WebSocket
/// upgrade, and the state handler after the additional ones), then leaves the pipeline.
final class EarlyRefusalInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    let policy: EarlyRefusal
    private var installed = false

    init(policy: EarlyRefusal) {
        self.policy = policy
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !installed {
            installed = true
            let operations = context.pipeline.syncOperations
            let handler = EarlyRefusalHandler(policy: policy)
            if let state = try? operations.handler(type: HTTPConnectionStateHandler.self) {
                try? operations.addHandler(handler, position: .after(state))
            } else {
                try? operations.addHandler(handler, position: .after(context.handler))
            }
            context.fireChannelRead(data)
            operations.removeHandler(context: context, promise: nil)
            return
        }
        context.fireChannelRead(data)
    }
}

/// `Date` header values (RFC 9110 IMF-fixdate), formatted once a second.
enum HTTPDate {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cached: (second: Int, text: String) = (-1, "")

    static func now() -> String {
        var now = time(nil)
        let second = Int(now)
        if let text = lock.withLock({ cached.second == second ? cached.text : nil }) { return text }
        var parts = tm()
        gmtime_r(&now, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text = "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        lock.withLock { cached = (second, text) }
        return text
    }
}
