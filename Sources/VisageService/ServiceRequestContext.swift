import Hummingbird
import HummingbirdWebSocket

/// Per-request state: when the request arrived (its deadline counts from there) and the WebSocket
/// upgrade reference Hummingbird needs for `/v1/track`.
public struct ServiceRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<ServiceRequestContext>
    /// When the request's head arrived.
    public let arrival: ContinuousClock.Instant

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        arrival = .now
    }
}
