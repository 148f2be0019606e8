import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Visage

/// Outermost: every error becomes the one JSON error body, and every answer is counted and logged with
/// its route pattern, status, size and time, never with anything the request carried, and carries its
/// durations in `Server-Timing` (``ServerTiming``).
struct ErrorAndMetricsMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let metrics: ServiceMetrics
    /// A full service's 503s are logged through it, one line a second while they go on.
    let refusals: RefusalLog

    /// The reasons counted in `visage_rejections_total`.
    static let countedRejections: Set<String> = Set(
        [ErrorCode.overloaded, .payloadTooLarge, .deadlineExceeded, .requestTimeout, .unauthorized].map(\.rawValue) + [ClientClosedRequest.reason])

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        metrics.requestStarted()
        defer { metrics.requestEnded() }
        var response: Response
        var code: String?
        do {
            response = try await next(request, context)
        } catch is ClientClosedRequest {
            // Counted and logged as 499; ConnectionCloseHandler closes the connection instead of sending it.
            code = ClientClosedRequest.reason
            response = Response(status: .init(code: ClientClosedRequest.status, reasonPhrase: "Client Closed Request"))
        } catch {
            let serviceError = ServiceError(from: error)
            code = serviceError.record.code.rawValue
            if serviceError.record.code == .internalError {
                context.logger.error("internal error", metadata: ["error": "\(String(describing: type(of: error)))"])
            }
            response = try serviceError.response(from: request, context: context)
        }
        let route = context.endpointPath ?? "unmatched"
        let duration = ContinuousClock.now - context.arrival
        response.headers[ServerTiming.name] = context.timing.header(total: duration)
        metrics.request(route: route, method: request.method.rawValue, status: response.status.code, duration: duration)
        if let code, Self.countedRejections.contains(code) {
            metrics.rejected(code)
        }
        if code == ErrorCode.overloaded.rawValue, response.status.code == 503 {
            refusals.refused(route: route, method: request.method.rawValue, requestBytes: request.headers[.contentLength], duration: duration)
            return response
        }
        Self.logAnswered(
            context.logger, route: route, method: request.method.rawValue, status: response.status.code,
            requestBytes: request.headers[.contentLength], duration: duration, code: code)
        return response
    }

    /// The one "answered" log line, also written by ``RefusalLog`` for the first 503 `overloaded` of a second.
    static func logAnswered(
        _ logger: Logger, route: String, method: String, status: Int, requestBytes: String?, duration: Duration, code: String?
    ) {
        logger.info(
            "answered",
            metadata: [
                "route": .string(route), "method": .string(method), "status": .stringConvertible(status),
                "requestBytes": .string(requestBytes ?? "-"),
                "milliseconds": .stringConvertible((Double(ServiceMetrics.nanoseconds(duration)) / 1e6 * 10).rounded() / 10),
                "code": .string(code ?? "-"),
            ])
    }
}

/// The optional API key: `/v1/...` and `/metrics` need it (`X-API-Key: KEY` or `Authorization: Bearer KEY`);
/// health probes, the page and the API document do not.
struct APIKeyMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let key: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard path.hasPrefix("/v1/") || path == "/v1" || path == "/metrics" else { return try await next(request, context) }
        guard Self.authorized(request, key: key) else {
            var headers = HTTPFields()
            headers[.wwwAuthenticate] = "Bearer"
            throw ServiceError(.unauthorized, "this service needs an API key in X-API-Key or Authorization: Bearer", headers: headers)
        }
        return try await next(request, context)
    }

    /// Whether `request` carries `key` in `X-API-Key` or `Authorization: Bearer`.
    static func authorized(_ request: Request, key: String) -> Bool {
        authorized(request.headers, key: key)
    }

    /// Whether `headers` carry `key` in `X-API-Key` or `Authorization: Bearer`.
    static func authorized(_ headers: HTTPFields, key: String) -> Bool {
        let bearer = headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        guard let given = headers[HTTPField.Name("X-API-Key")!] ?? bearer else { return false }
        return equal(given, key)
    }

    /// Compares without stopping at the first difference.
    static func equal(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}
