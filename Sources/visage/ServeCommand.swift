import ArgumentParser
import Foundation
import Hummingbird
import VisageService

/// `visage serve`: the HTTP and WebSocket service.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve face analysis, contours and live tracking over HTTP and WebSocket.",
        discussion: """
            Endpoints: POST /v1/faces, /v1/faces/batch, /v1/contours, /v1/annotate; WebSocket /v1/track; \
            GET /healthz, /readyz, /metrics, /openapi.yaml, /docs, and the page at /. Images are processed \
            in memory only: never written to disk, logs or metrics. SIGTERM or SIGINT drains: the service \
            stops accepting, finishes accepted requests, closes WebSockets with a close frame and exits 0.

              $ visage serve
              $ curl --data-binary @Samples/astronaut.png -H 'Content-Type: image/png' localhost:8080/v1/faces
              $ VISAGE_API_KEY=secret visage serve --host 0.0.0.0 --max-inferences 4
            """)

    @Option(help: "Address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(help: ArgumentHelp("Largest request body; larger ones get 413.", valueName: "BYTES"))
    var maxBodyBytes = ServiceConfiguration().maxBodyBytes

    @Option(help: ArgumentHelp("Most pixels an image may declare in its header; more get 422.", valueName: "PIXELS"))
    var maxPixels = ServiceConfiguration().maxPixels

    // Optional, so that the help states the rule and this machine's value once rather than adding a bare
    // "(default: 2)" the reader would take for a constant.
    @Option(help: ArgumentHelp("Inferences at once (default: the cores this process may use, after its CPU affinity mask and cgroup CPU quota; \(ServiceConfiguration().maxConcurrentInferences) here).", valueName: "N"))
    var maxInferences: Int?

    @Option(help: ArgumentHelp("Requests waiting for an inference beyond those running; more get 503 with Retry-After (default: half the cores, at least 1; \(ServiceConfiguration().queueLength) here).", valueName: "N"))
    var queue: Int?

    @Option(help: ArgumentHelp("How long an admitted request may wait for an inference: milliseconds, `auto` (half the median of the last 32 inferences; pays with a long --queue) or `none` (a request waits until its deadline); 503 with Retry-After after it.", valueName: "MS|auto|none"))
    var queueTimeout = "none"

    @Option(help: ArgumentHelp("While more than half of the requests of the last window were refused, the queue is closed (a request is then admitted only when an inference is free, so accepted requests never wait under overload): the window in milliseconds (1000 is a good start; pays with a long --queue), or `none` (the queue stays open).", valueName: "MS|none"))
    var overloadWindow = "none"

    @Option(help: ArgumentHelp("After a 503 with Retry-After, the connection is not read again for this long: milliseconds, or `none` (a client that resends at once, ignoring Retry-After, waits that long, so a retry storm cannot take the cores from the inferences; the 503 itself goes at once).", valueName: "MS|none"))
    var refusalPause = "3"

    @Option(help: ArgumentHelp("Seconds from a request's arrival to its answer; 504 after.", valueName: "SECONDS"))
    var deadline = 10.0

    @Option(help: ArgumentHelp("Seconds to receive a whole request body; 408 after.", valueName: "SECONDS"))
    var bodyTimeout = 5.0

    @Option(help: ArgumentHelp("Seconds a SIGTERM or SIGINT drain may take before the process exits with status 1 anyway (default: --deadline plus 10, within Kubernetes' default 30 s grace period).", valueName: "SECONDS"))
    var drainTimeout: Double?

    @Option(help: ArgumentHelp("Open connections at once.", valueName: "N"))
    var maxConnections = ServiceConfiguration().maxConnections

    @Option(help: ArgumentHelp("Largest WebSocket message (one frame's JPEG or PNG).", valueName: "BYTES"))
    var maxMessageBytes = ServiceConfiguration().maxWebSocketMessageBytes

    @Option(help: ArgumentHelp("Tracking WebSocket connections at once.", valueName: "N"))
    var maxTrackers = ServiceConfiguration().maxWebSocketConnections

    @Option(help: ArgumentHelp("Require this key in X-API-Key or Authorization: Bearer for /v1 and /metrics (default: $VISAGE_API_KEY; none: open).", valueName: "KEY"))
    var apiKey: String?

    @Option(help: ArgumentHelp("Serve the page from this folder instead of the bundled one.", valueName: "DIR"))
    var web: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) must be in 0…65535") }
        for (name, value) in [("--max-body-bytes", maxBodyBytes), ("--max-pixels", maxPixels), ("--max-inferences", maxInferences ?? 1),
                              ("--max-connections", maxConnections), ("--max-message-bytes", maxMessageBytes), ("--max-trackers", maxTrackers)]
        where value < 1 {
            throw ValidationError("\(name) \(value) must be at least 1")
        }
        if let queue, queue < 0 { throw ValidationError("--queue \(queue) must be 0 or more") }
        guard Self.queueTimeout(queueTimeout) != nil else {
            throw ValidationError("--queue-timeout \(queueTimeout) must be `auto`, `none` or milliseconds in [0, 3600000]")
        }
        guard Self.overloadWindow(overloadWindow) != nil else {
            throw ValidationError("--overload-window \(overloadWindow) must be `none` or milliseconds in [0, 3600000]")
        }
        guard Self.overloadWindow(refusalPause) != nil else {
            throw ValidationError("--refusal-pause \(refusalPause) must be `none` or milliseconds in [0, 3600000]")
        }
        for (name, value) in [("--deadline", deadline), ("--body-timeout", bodyTimeout), ("--drain-timeout", drainTimeout ?? 1)]
        where !(value.isFinite && value > 0 && value <= 3600) {
            throw ValidationError("\(name) \(value) must be in (0, 3600] seconds")
        }
    }

    var serviceConfiguration: ServiceConfiguration {
        var configuration = ServiceConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.maxBodyBytes = maxBodyBytes
        configuration.maxPixels = maxPixels
        if let maxInferences { configuration.maxConcurrentInferences = maxInferences }
        if let queue { configuration.queueLength = queue }
        configuration.queueTimeout = Self.queueTimeout(queueTimeout) ?? QueueTimeout.none
        configuration.overloadWindow = Self.overloadWindow(overloadWindow) ?? nil
        configuration.refusalPause = Self.overloadWindow(refusalPause) ?? nil
        configuration.requestDeadline = .milliseconds(Int64(deadline * 1000))
        configuration.bodyTimeout = .milliseconds(Int64(bodyTimeout * 1000))
        configuration.maxConnections = maxConnections
        configuration.maxWebSocketMessageBytes = maxMessageBytes
        configuration.maxWebSocketConnections = maxTrackers
        configuration.apiKey = apiKey ?? ProcessInfo.processInfo.environment["VISAGE_API_KEY"]
        configuration.webDirectory = web.map { URL(fileURLWithPath: $0) }
        return configuration
    }

    func run() async throws {
        let drain = drainTimeout ?? deadline + 10
        let app = try buildApplication(serviceConfiguration, onWarmUpFailure: { error in Self.exit(after: 10, saying: "Error: \(error)") })
        try await withServiceExecutor {
            try await runService(app) {
                Self.exit(after: drain, saying: """
                    Error: the drain did not end within \(drain.formatted()) s (--drain-timeout): requests were still \
                    running, or the service group's teardown hung (swift-async-algorithms issue 430); exiting
                    """)
            }
        }
    }

    /// A watchdog: unless the process has ended by itself `seconds` from now, prints `message` and exits
    /// with status 1. The service group's teardown normally ends the process within milliseconds of a
    /// failed model load, and a drain within a request's deadline; when the teardown deadlocks
    /// (``WarmUp``) or work outlasts the bound, this ends it.
    @Sendable static func exit(after seconds: Double, saying message: String) {
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            FileHandle.standardError.write(Data((message + "\n").utf8))
            Foundation.exit(1)
        }
    }

    /// `--queue-timeout`'s value, or nil when it is not one.
    static func queueTimeout(_ text: String) -> QueueTimeout? {
        switch text {
        case "auto": return .halfTypicalInference
        case "none": return QueueTimeout.none
        default: return duration(milliseconds: text).map { .fixed($0) }
        }
    }

    /// `--overload-window`'s (and `--refusal-pause`'s) value (`.some(nil)` for `none`), or nil when it is not one.
    static func overloadWindow(_ text: String) -> Duration?? {
        text == "none" ? .some(nil) : duration(milliseconds: text).map { .some($0) }
    }

    /// Milliseconds in [0, 3600000] as a duration, or nil.
    private static func duration(milliseconds text: String) -> Duration? {
        guard let milliseconds = Double(text), milliseconds.isFinite, (0...3_600_000).contains(milliseconds) else { return nil }
        return .microseconds(Int64((milliseconds * 1000).rounded()))
    }
}
