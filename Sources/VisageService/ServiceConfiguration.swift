import Foundation
import VisageNN

/// Every setting of `visage serve`, with the defaults the README and the OpenAPI document state.
///
/// The CLI fills it from flags and environment (`visage serve --help`); tests build it directly, with
/// port 0 and a fake analyzer.
public struct ServiceConfiguration: Sendable {
    /// Address to listen on. The default is loopback only: exposing the service is a decision.
    public var host = "127.0.0.1"
    /// Port; 0 picks a free one (tests).
    public var port = 8080

    /// Largest request body. Larger bodies get 413 before they are read past this.
    public var maxBodyBytes = 20 * 1024 * 1024
    /// Most pixels an image may declare in its header (checked before decoding; 422 above).
    public var maxPixels = 50_000_000
    /// Images in one `POST /v1/faces/batch`.
    public var maxBatchImages = 16

    /// Inferences running at once; the default is the core count.
    public var maxConcurrentInferences = AvailableCores.count
    /// Requests admitted beyond those running, waiting for an inference slot. Beyond it: 503. One place
    /// per two cores (rounded up): under overload the queue stays full, so an accepted request waits for
    /// about as many inferences to end as places are ahead of it. With one place per core that wait was a
    /// whole inference, and the accepted p99 2.6–3.6× the unloaded one; with half as many places it is
    /// 2.0–2.2×, at the same 200s/s (`Scripts/benchmark-serve.py`, 2 cores, 2026-11-27). Under overload
    /// the queue closes altogether (``overloadWindow``).
    public var queueLength = max(1, (AvailableCores.count + 1) / 2)
    /// How long an admitted request may wait for an inference slot; 503 with `Retry-After` after it.
    /// The default waits until the deadline (see ``QueueTimeout/typicalInference(fraction:)`` for when a
    /// limit pays).
    public var queueTimeout = QueueTimeout.none
    /// The span over which refusals are counted: while more than half of its requests were refused, the
    /// queue is closed and a request is admitted only when an inference slot is free
    /// (``Admission/overloadWindow``). Nil, the default, keeps the queue open: on 2 cores with the default
    /// single place, closing it (1 s) left the accepted p99 at 4 × capacity where it was (≤ 11–12 ms) and
    /// cost 12–25 % of the 200s; with `--queue 4` it cut the p99 from ≤ 25 to ≤ 20 ms (storm ≤ 45 → 28 ms)
    /// for 18 % of the 200s (`Scripts/benchmark-serve.py`, quiet, 2026-11-27 16:17–16:20 UTC).
    public var overloadWindow: Duration? = nil
    /// How long a connection just answered 503 with `Retry-After` (a full service) is not read again. The
    /// 503 itself goes at once; a client that resends on that connection sooner, ignoring `Retry-After`, is
    /// read when the pause ends. A closed-loop client resending each 503 at once (wrk) otherwise turns
    /// every refused connection into about 6,000 refusals a second on 2 cores, each costing the server about
    /// 100 µs and the client about 50 µs, which the inferences lose (docs/benchmarks/service.md, session 19).
    /// Nil reads at once.
    public var refusalPause: Duration? = .milliseconds(3)
    /// `Retry-After` of a 503, seconds.
    public var retryAfterSeconds = 1
    /// Time from a request's arrival to its answer; 504 after it.
    public var requestDeadline: Duration = .seconds(10)
    /// Time to receive a whole request body; 408 after it (a slow body holds its connection and its bytes).
    public var bodyTimeout: Duration = .seconds(5)
    /// Bytes that the bodies still arriving may hold together (bodies are read before their request takes
    /// an admission place, so a slow one holds no place); a body past it is refused with 503. Nil is
    /// (inferences + queue) × `maxBodyBytes`, what the admission places could hold; never below one body.
    public var maxReceivingBodyBytes: Int?
    var receivingBodyBytes: Int {
        max(maxBodyBytes, maxReceivingBodyBytes ?? (maxConcurrentInferences + queueLength) * maxBodyBytes)
    }
    /// Open connections at once (HTTP and WebSocket together).
    public var maxConnections = 512

    /// Largest WebSocket message (a frame's JPEG or PNG); 1080p JPEGs are a few hundred KiB.
    public var maxWebSocketMessageBytes = 8 * 1024 * 1024
    /// WebSocket connections to `/v1/track` at once; more are refused with 503.
    public var maxWebSocketConnections = 16

    /// When set, `/v1/...` and `/metrics` need it in `X-API-Key` or `Authorization: Bearer` (401 otherwise).
    public var apiKey: String?

    /// The page's folder (index.html …); nil finds the bundled one (``ServiceResources``).
    public var webDirectory: URL?

    public init() {}
}
