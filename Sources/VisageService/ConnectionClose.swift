import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Ends a connection whose request the service will not read, without reading it through.
///
/// HTTP/1.1 lets a server answer before reading a request's body, but then it must either read the body
/// (to find the next request) or close. Reading a 68 KB upload only to refuse it cost a refusal as much
/// CPU as half a detection, so under overload the refusals took the cores the inferences needed. The
/// service marks such answers `Connection: close` (``AnalysisGate``) and this handler closes the
/// connection after them, the way servers close after an unread body ("lingering close"):
///
/// 1. the answer is written and flushed, then the sending side is shut (FIN after the last byte);
/// 2. whatever the client still sends is dropped here on the event loop, never parsed into a request,
///    until the client closes or `linger` passes, and only then is the connection closed. Closing at once
///    with unread bytes in the socket would send a reset, and a client still sending its body could lose
///    the 503 it has not yet read.
///
/// An answer with status 499 (the client closed its request: ``ClientClosedRequest``) is never written:
/// there is no one to read it, so the connection is closed instead.
final class ConnectionCloseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let linger: TimeAmount
    private var state = State.open
    private var lingerTimer: Scheduled<Void>?

    private enum State {
        case open
        /// The answer being written says `Connection: close`.
        case closingAfterAnswer
        /// A 499 answer being dropped.
        case dropping
        /// Answered and shut for sending; dropping what arrives until the client closes.
        case lingering
    }

    init(linger: TimeAmount = .seconds(5)) {
        self.linger = linger
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        if case .head(let head) = part, state == .open {
            if head.status.code == ClientClosedRequest.status {
                state = .dropping
            } else if head.headerFields[.connection]?.lowercased() == "close" {
                state = .closingAfterAnswer
            }
        }
        switch (state, part) {
        case (.dropping, .end):
            promise?.succeed(())
            context.close(promise: nil)
        case (.dropping, _), (.lingering, _):
            promise?.succeed(())
        case (.closingAfterAnswer, .end):
            state = .lingering
            context.writeAndFlush(data, promise: promise)
            // Shuts the socket's sending side once the answer has gone (NIO waits for pending writes).
            context.close(mode: .output, promise: nil)
            lingerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: linger) { context.close(promise: nil) }
            context.read()
        default:
            context.write(data, promise: promise)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state == .lingering || state == .dropping else {
            context.fireChannelRead(data)
            return
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // What is dropped never reaches the request stream, whose back-pressure would stop the reads.
        if state == .lingering { context.read() }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        context.fireUserInboundEventTriggered(event)
        if state == .lingering, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        lingerTimer?.cancel()
        lingerTimer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        lingerTimer?.cancel()
        lingerTimer = nil
    }
}

/// The work of a request whose client went away (closed its connection or its sending side) before the
/// answer: counted and logged as status 499 with the reason `client_closed_request`, nginx's convention,
/// and never sent (``ConnectionCloseHandler`` closes the connection instead). A deadline that passes is
/// still 504 `deadline_exceeded`.
struct ClientClosedRequest: Error {
    static let status = 499
    static let reason = "client_closed_request"
}
