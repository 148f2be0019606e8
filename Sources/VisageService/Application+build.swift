import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import ServiceLifecycle
import Visage

/// The whole service, as `visage serve` runs it and the tests drive it: routes, middleware, limits,
/// WebSocket tracking, and a warm-up service that marks `/readyz` ready once the models are loaded.
///
/// ```swift
/// let app = try buildApplication(configuration)   // VisageAnalyzer by default
/// try await withServiceExecutor { try await app.runService() }   // SIGTERM/SIGINT drain and exit
/// ```
///
/// `onWarmUpFailure` is called with the error when the models cannot be loaded, before the service ends
/// with it: `visage serve` arms a watchdog there, since the service group's teardown can deadlock
/// (see ``WarmUp``).
public func buildApplication(
    _ configuration: ServiceConfiguration, analyzer: any FaceAnalyzing = VisageAnalyzer(),
    metrics: ServiceMetrics = ServiceMetrics(), logger: Logger? = nil,
    onWarmUpFailure: (@Sendable (any Error) -> Void)? = nil
) throws -> some ApplicationProtocol {
    let logger = logger ?? {
        var logger = Logger(label: "visage.serve")
        logger.logLevel = .info
        return logger
    }()
    let readiness = Readiness()
    let admission = Admission(
        slots: configuration.maxConcurrentInferences, queueLength: configuration.queueLength,
        queueTimeout: configuration.queueTimeout, overloadWindow: configuration.overloadWindow, retryAfterSeconds: configuration.retryAfterSeconds, onQueueDepth: { metrics.queue(depth: $0) })
    metrics.limits(slots: admission.slots, queue: admission.queueLength)
    let gate = AnalysisGate(
        admission: admission,
        reader: RequestBodyReader(maxBytes: configuration.maxBodyBytes, timeout: configuration.bodyTimeout),
        bodies: BodyBudget(limit: configuration.receivingBodyBytes, retryAfterSeconds: configuration.retryAfterSeconds),
        deadline: configuration.requestDeadline, limits: DecodeLimits(maxPixels: configuration.maxPixels), metrics: metrics,
        analyzer: analyzer)

    let analysisRoutes = FacesController(gate: gate, maxBatchImages: configuration.maxBatchImages).routes + ContoursController(gate: gate).routes
    let refusals = RefusalLog(logger: logger)
    let earlyRefusal = EarlyRefusal(
        admission: admission, routes: analysisRoutes, maxBodyBytes: configuration.maxBodyBytes, apiKey: configuration.apiKey,
        metrics: metrics, refusals: refusals, refusalPause: configuration.refusalPause)

    let router = Router(context: ServiceRequestContext.self)
    router.add(middleware: ErrorAndMetricsMiddleware(metrics: metrics, refusals: refusals))
    if let web = configuration.webDirectory ?? ServiceResources.folder?.appendingPathComponent("Web") {
        router.add(middleware: FileMiddleware(web.path, searchForIndexHtml: true, logger: logger))
    }
    if let key = configuration.apiKey, !key.isEmpty {
        router.add(middleware: APIKeyMiddleware(key: key))
    }
    HealthController(readiness: readiness, metrics: metrics).add(to: router)
    for route in analysisRoutes { route.add(to: router) }

    let webSocketRouter = Router(context: ServiceRequestContext.self)
    let tracking = TrackController(
        gate: gate, maxMessageBytes: configuration.maxWebSocketMessageBytes,
        connections: ConnectionCount(limit: configuration.maxWebSocketConnections))
    tracking.add(to: webSocketRouter, apiKey: configuration.apiKey.flatMap { $0.isEmpty ? nil : $0 })
    tracking.addRefusals(to: router)

    // HTTP/1 with the WebSocket upgrade, as `.http1WebSocketUpgrade` builds it, with each connection
    // run on the service's own executor (ServiceExecutor).
    let webSocketResponder = webSocketRouter.buildResponder()
    let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
        // The watch sees a client go without touching the request stream: keep-alive survives. The close
        // handler ends connections whose body the service will not read (refusals) without reading it.
        // The early refusal answers a full service's 503s on the event loop (EarlyRefusal).
        http1: .init(
            additionalChannelHandlers: [ConnectionCloseHandler(), ConnectionWatchHandler(), EarlyRefusalInstaller(policy: earlyRefusal)],
            idleTimeout: .seconds(60)),
        ws: .init(maxFrameSize: configuration.maxWebSocketMessageBytes))
    let server = HTTPServerBuilder { responder in
        ServiceExecutorChannel(
            base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: channelConfiguration))
    }
    var app = Application(
        router: router,
        server: server,
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "visage",
            availableConnectionsDelegate: .maximum(configuration.maxConnections, logger: logger)),
        services: [WarmUp(analyzer: analyzer, readiness: readiness, logger: logger, onFailure: onWarmUpFailure)],
        logger: logger)
    app.beforeServerStarts { logger.info("loading models", metadata: ["inferences": "\(configuration.maxConcurrentInferences)"]) }
    return app
}

/// Runs `app` as `Application.runService()` does, draining on SIGTERM or SIGINT, and calls `onShutdown`
/// the moment the drain begins: a service group shuts its services down last first, so `app`'s own
/// services (``WarmUp``) hear of it only once the server has drained. `visage serve` bounds the drain
/// there (`--drain-timeout`), since the group's teardown can deadlock (see ``WarmUp``).
public func runService(_ app: some ApplicationProtocol, onShutdown: @escaping @Sendable () -> Void) async throws {
    let group = ServiceGroup(configuration: .init(
        services: [app, ShutdownNotice(action: onShutdown)], gracefulShutdownSignals: [.sigterm, .sigint], logger: app.logger))
    try await group.run()
}

/// Calls `action` when the service group starts shutting down, and ends.
struct ShutdownNotice: Service {
    let action: @Sendable () -> Void

    func run() async throws {
        try? await gracefulShutdown()
        action()
    }
}

/// Loads and warms the models off the request path, then marks the service ready; on shutdown it
/// marks it not ready first, so a load balancer stops sending before the server stops accepting.
///
/// A load that fails throws, which ends the service group and so the service. That teardown cancels the
/// group's tasks, and about 1 in 150 times (debug build, two at once) swift-async-algorithms' `merge`,
/// which the group waits on, deadlocks against the task's cancellation (its issue 430, fixed by its PR
/// 444, not released): the process then stays alive, never ready, never exiting. `onFailure` lets the
/// process's owner act on the error first (`visage serve` exits 1 if the teardown has not ended it soon).
struct WarmUp: Service {
    let analyzer: any FaceAnalyzing
    let readiness: Readiness
    let logger: Logger
    var onFailure: (@Sendable (any Error) -> Void)? = nil

    func run() async throws {
        let analyzer = self.analyzer
        let start = ContinuousClock.now
        // The first of the warm-up's end and shutdown: a model load that never returns (a FIFO or a
        // device where a model file should be) must not keep a SIGTERM'd service alive, listening and
        // never ready. Shutdown then leaves the load's thread to the process's exit.
        let outcome = ResumeOnce<Bool>()
        let onFailure = self.onFailure
        let warmed = try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
                    outcome.set(continuation)
                    DispatchQueue.global().async {
                        outcome.resume(with: Result {
                            do { try analyzer.warmUp() } catch { onFailure?(error); throw error }
                            return true
                        })
                    }
                }
            } onCancel: {
                outcome.resume(with: .failure(CancellationError()))
            }
        } onGracefulShutdown: {
            outcome.resume(with: .success(false))
        }
        guard warmed else {
            logger.info("shutting down before the models were loaded", metadata: ["seconds": "\(ContinuousClock.now - start)"])
            return
        }
        readiness.markReady()
        logger.info("ready", metadata: ["warmUpSeconds": "\(ContinuousClock.now - start)"])
        try? await gracefulShutdown()
        readiness.markDraining()
    }
}
