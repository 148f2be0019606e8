import Foundation
import Hummingbird

/// Whether the models are loaded and warm, and whether the service is draining.
public final class Readiness: @unchecked Sendable {
    private let lock = NSLock()
    private var ready = false
    private var draining = false

    public init() {}
    public var isReady: Bool { lock.withLock { ready && !draining } }
    func markReady() { lock.withLock { ready = true } }
    func markDraining() { lock.withLock { draining = true } }
}

/// `/healthz`, `/readyz`, `/metrics`, `/openapi.yaml` and `/docs`.
struct HealthController {
    let readiness: Readiness
    let metrics: ServiceMetrics

    struct Status: Codable { var status: String }

    func add(to router: Router<ServiceRequestContext>) {
        router.get("healthz") { _, _ in try Response.json(Status(status: "ok")) }
        router.get("readyz") { _, _ in
            guard readiness.isReady else {
                throw ServiceError(.notReady, "the models are not loaded yet, or the service is shutting down")
            }
            return try Response.json(Status(status: "ready"))
        }
        router.get("metrics") { _, _ in
            Response.data(Data(metrics.exposition().utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.get("openapi.yaml") { _, _ in try Self.bundled("openapi.yaml", contentType: "application/yaml") }
        router.get("docs") { _, _ in try Self.bundled("docs.html", contentType: "text/html; charset=utf-8") }
    }

    static func bundled(_ name: String, contentType: String) throws -> Response {
        guard let data = ServiceResources.data(name) else {
            throw ServiceError(.notFound, "\(name) is not installed beside this binary (see ServiceResources)")
        }
        return .data(data, contentType: contentType)
    }
}
