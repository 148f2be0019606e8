import Foundation
import Visage
import Metrics
import Prometheus

/// The service's metrics through swift-metrics, kept in a Prometheus registry of the application's own
/// (not the process-wide `MetricsSystem`, so several applications in one test process stay apart).
///
/// Labels are route patterns, methods, status codes, reasons and stage names: never anything from a
/// request's data.
public final class ServiceMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    private let inFlight: Metrics.Meter
    private let queueDepth: Metrics.Gauge
    private let webSocketConnections: Metrics.Meter

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Fine up to 50 ms, where detections answer unloaded and under overload, so a p99 read from them
        // says something: a bound of 10 against one of 20 could be anything from 1.5× to 2.5×.
        let requestBuckets: [Duration] = [
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 22, 25, 28, 32, 36, 40, 45, 50, 60, 80, 100, 150, 200, 300, 500,
            1000, 2000, 5000, 10_000,
        ].map {
            .milliseconds($0)
        }
        factory.defaultDurationHistogramBuckets = requestBuckets
        self.factory = factory
        inFlight = Metrics.Meter(label: "visage_http_requests_in_flight", factory: factory)
        queueDepth = Metrics.Gauge(label: "visage_inference_queue_depth", factory: factory)
        webSocketConnections = Metrics.Meter(label: "visage_websocket_connections", factory: factory)
    }

    /// One answered request: by route pattern, method and status, and its duration.
    func request(route: String, method: String, status: Int, duration: Duration) {
        let series = requestSeries(route: route, method: method, status: status)
        series.count.increment()
        series.duration.recordNanoseconds(Self.nanoseconds(duration))
    }

    /// The counter and timer of one route, method and status, made once: making them looks them up in
    /// the registry by name and labels under its lock, on every answer.
    private func requestSeries(route: String, method: String, status: Int) -> (count: Metrics.Counter, duration: Metrics.Timer) {
        once(\.series, RequestKey(route: route, method: method, status: status)) {
            (
                count: Metrics.Counter(
                    label: "visage_http_requests_total", dimensions: [("route", route), ("method", method), ("status", "\(status)")], factory: factory),
                duration: Metrics.Timer(label: "visage_http_request_duration_seconds", dimensions: [("route", route), ("status", "\(status)")], factory: factory)
            )
        }
    }

    /// The value of `key` in `table`, made by `make` the first time (under ``seriesLock``).
    private func once<Key: Hashable, Value>(_ table: ReferenceWritableKeyPath<ServiceMetrics, [Key: Value]>, _ key: Key, make: () -> Value) -> Value {
        if let known = seriesLock.withLock({ self[keyPath: table][key] }) { return known }
        let made = make()
        seriesLock.withLock { self[keyPath: table][key] = made }
        return made
    }

    private struct RequestKey: Hashable {
        var route: String, method: String, status: Int
    }
    private let seriesLock = NSLock()
    nonisolated(unsafe) private var series: [RequestKey: (count: Metrics.Counter, duration: Metrics.Timer)] = [:]

    func requestStarted() { inFlight.increment() }
    func requestEnded() { inFlight.decrement() }

    /// A request refused for `reason` (an error code: overloaded, payload_too_large, deadline_exceeded …).
    func rejected(_ reason: String) {
        once(\.rejections, reason) {
            Metrics.Counter(label: "visage_rejections_total", dimensions: [("reason", reason)], factory: factory)
        }.increment()
    }

    /// The counters and timers made once per reason and stage, as `series` (a few names each).
    nonisolated(unsafe) private var rejections: [String: Metrics.Counter] = [:]
    nonisolated(unsafe) private var stageTimers: [String: Metrics.Timer] = [:]

    func queue(depth: Int) { queueDepth.record(depth) }

    /// The admission limits in force (`--max-inferences`, `--queue`), so load scripts and dashboards
    /// read them instead of assuming the defaults.
    func limits(slots: Int, queue: Int) {
        Metrics.Gauge(label: "visage_inference_slots", factory: factory).record(slots)
        Metrics.Gauge(label: "visage_inference_queue_places", factory: factory).record(queue)
    }

    /// Seconds spent in each pipeline stage.
    func stages(_ timings: [StageTiming]) {
        for timing in timings {
            once(\.stageTimers, timing.stage) {
                Metrics.Timer(label: "visage_stage_seconds", dimensions: [("stage", timing.stage)], factory: factory)
            }.recordNanoseconds(Int64(timing.milliseconds * 1e6))
        }
    }

    func webSocketOpened() { webSocketConnections.increment() }
    func webSocketClosed() { webSocketConnections.decrement() }

    /// Frames a tracking connection dropped because it fell behind.
    func framesSkipped(_ count: Int) {
        guard count > 0 else { return }
        Metrics.Counter(label: "visage_track_frames_skipped_total", factory: factory).increment(by: count)
    }

    func framesProcessed() {
        Metrics.Counter(label: "visage_track_frames_total", factory: factory).increment()
    }

    /// The Prometheus text exposition.
    public func exposition() -> String { registry.emitToString() }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
