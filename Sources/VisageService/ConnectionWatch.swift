import Foundation
import NIOCore

/// Whether a connection's client has gone, told to the request working for it.
///
/// A client that closes its connection (or its sending side) while its request waits or runs cancels
/// that work. Hummingbird's `consumeWithCancellationOnInboundClose` watches the inbound stream for this,
/// but ends the connection after the answer, so every request paid for a new connection. Here a channel
/// handler (``ConnectionWatchHandler``) sees the closure instead and the stream is left alone, so the
/// connection stays open for the client's next request.
final class ConnectionWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var gone = false
    private var onGone: (@Sendable () -> Void)?
    /// When the head of the request being taken up arrived, until its context takes it or it is answered.
    private var headArrival: ContinuousClock.Instant?

    /// Calls `action` once when the client goes, at once if it already has. One action at a time: a
    /// connection carries one request at a time.
    func whenGone(_ action: @escaping @Sendable () -> Void) {
        let already = lock.withLock { () -> Bool in
            if gone { return true }
            onGone = action
            return false
        }
        if already { action() }
    }

    /// Forgets the action ``whenGone(_:)`` set: its request is answered.
    func stopWatching() {
        lock.withLock { onGone = nil }
    }

    var isGone: Bool { lock.withLock { gone } }

    /// Notes that a request's head arrived at `instant` (on the event loop), for its context.
    func headArrived(at instant: ContinuousClock.Instant?) {
        lock.withLock { headArrival = instant }
    }

    /// The arrival ``headArrived(at:)`` noted, once. A pipelined head that arrives before the previous
    /// request's context was made replaces it (that request then counts from the later arrival, the next
    /// from its context), and an answer forgets it: an arrival is never carried to a later request.
    func takeHeadArrival() -> ContinuousClock.Instant? {
        lock.withLock {
            defer { headArrival = nil }
            return headArrival
        }
    }

    fileprivate func markGone() {
        let action = lock.withLock { () -> (@Sendable () -> Void)? in
            gone = true
            defer { onGone = nil }
            return onGone
        }
        action?()
    }

    /// The watch of each open HTTP channel, so a request finds its own from the channel Hummingbird
    /// hands its context. Entries live from the handler's addition to its removal.
    private static let registry = Registry()

    static func of(_ channel: any Channel) -> ConnectionWatch? { registry[ObjectIdentifier(channel)] }

    final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var watches: [ObjectIdentifier: ConnectionWatch] = [:]
        subscript(key: ObjectIdentifier) -> ConnectionWatch? {
            get { lock.withLock { watches[key] } }
            set { lock.withLock { watches[key] = newValue } }
        }
    }

    fileprivate static func register(_ watch: ConnectionWatch?, for channel: any Channel) {
        registry[ObjectIdentifier(channel)] = watch
    }
}

/// Passes everything through and marks the connection's ``ConnectionWatch`` gone when the client closes
/// its side (half-closure, as before: a client that stops sending is treated as gone) or the channel
/// closes. It never reads or changes a message, so it may stay after a WebSocket upgrade.
final class ConnectionWatchHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    let watch = ConnectionWatch()

    func handlerAdded(context: ChannelHandlerContext) {
        ConnectionWatch.register(watch, for: context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        ConnectionWatch.register(nil, for: context.channel)
        watch.markGone()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { watch.markGone() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        watch.markGone()
        context.fireChannelInactive()
    }
}
