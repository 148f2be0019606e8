import Hummingbird
import HummingbirdWebSocket

/// Per-request state: when the request arrived (its deadline counts from there), its connection's
/// watch (a client that goes cancels its work) and the WebSocket upgrade reference Hummingbird needs
/// for `/v1/track`.
public struct ServiceRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<ServiceRequestContext>
    /// When the request's head arrived.
    public let arrival: ContinuousClock.Instant
    /// Nil where no ``ConnectionWatchHandler`` is in the channel (HummingbirdTesting's router mode).
    let connection: ConnectionWatch?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        arrival = .now
        connection = ConnectionWatch.of(source.channel)
    }
}
