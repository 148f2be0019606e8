import Hummingbird
import HummingbirdWebSocket
import Foundation

/// Per-request state: when the request arrived (its deadline counts from there), its connection's
/// watch (a client that goes cancels its work), the durations its `Server-Timing` header reports and the
/// WebSocket upgrade reference Hummingbird needs for `/v1/track`.
public struct ServiceRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The upgrade reference, until ``releaseWebSocket()``.
    public var webSocket: WebSocketHandlerReference<ServiceRequestContext> { upgrade.reference ?? .init() }
    /// When the request's head arrived on the event loop (``EarlyRefusalHandler`` notes it), so the wait
    /// for a thread to take the request up counts too; when the context was made where nothing noted it.
    public let arrival: ContinuousClock.Instant
    /// Nil where no ``ConnectionWatchHandler`` is in the channel (HummingbirdTesting's router mode).
    let connection: ConnectionWatch?
    /// Shared by every copy of the context.
    let timing = ServerTiming()
    private let upgrade = UpgradeSlot()

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = ConnectionWatch.of(source.channel)
        arrival = connection?.takeHeadArrival() ?? .now
    }

    /// Lets go of the upgrade reference once the WebSocket handler runs. HummingbirdWebSocket (2.8.1) keeps
    /// a copy of this context inside the reference's own box, so holding the reference directly made a
    /// cycle: about 680 bytes never freed per WebSocket connection (FUZZING.md, finding 15).
    func releaseWebSocket() { upgrade.release() }

    /// Shared by every copy of one request's context, so releasing it breaks the cycle for all of them.
    /// A lock, not `Synchronization.Mutex`, which needs macOS 15 where the package supports 14.
    private final class UpgradeSlot: @unchecked Sendable {
        private let lock = NSLock()
        private var slot: WebSocketHandlerReference<ServiceRequestContext>? = .init()
        var reference: WebSocketHandlerReference<ServiceRequestContext>? { lock.withLock { slot } }
        func release() { lock.withLock { slot = nil } }
    }
}
