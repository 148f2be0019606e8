import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to the live service, for what HTTP clients do not do on purpose: drip a
/// body, stream past a limit without Content-Length, or hang up mid-request.
final class RawConnection: @unchecked Sendable {
    private let socket: Int32

    /// `silence`: seconds without a byte after which a read gives up (longer for answers that a debug
    /// build on a loaded machine computes slowly).
    init(port: Int, silence: Int = 10) throws {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard socket >= 0, connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: silence, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    func send(_ text: String) { send(Data(text.utf8)) }

    /// Sends all of `data`; false if the connection failed first (reset, or closed for reading by a
    /// server that stopped reading).
    @discardableResult func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let sent = Glibc.send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                #else
                let sent = Darwin.send(socket, buffer.baseAddress! + offset, buffer.count - offset, 0)
                #endif
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// How a read ended: the server closed its sending side (FIN), reset the connection, or said nothing
    /// for 10 s.
    enum End: Equatable { case closed, reset, silence }

    /// The response, read on a thread of its own: a blocking read on Swift's cooperative pool would
    /// starve the server under test, which runs on the same pool.
    func response() async -> String {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.receive()) }.start()
        }
    }

    /// Everything the server sends until it closes, the response is complete, or 10 s of silence.
    func receive() -> String {
        let received = receive { received in
            guard let text = String(data: received, encoding: .utf8), let end = text.range(of: "\r\n\r\n"),
                  let length = text[..<end.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") })
                    .flatMap({ Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) })
            else { return false }
            return received.count >= text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound.samePosition(in: text.utf8)!) + length
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The next `count` responses (pipelined answers may arrive in one read), split by Content-Length;
    /// fewer if the server closes or is silent for 10 s first.
    func responses(_ count: Int) async -> [String] {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Self.split(self.receive { Self.split($0).count >= count }).prefix(count).map { $0 }) }.start()
        }
    }

    /// The complete responses at the start of `data`.
    private static func split(_ data: Data) -> [String] {
        var responses: [String] = []
        var rest = data[...]
        while let end = rest.range(of: Data("\r\n\r\n".utf8)) {
            let head = String(decoding: rest[..<end.lowerBound], as: UTF8.self)
            let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            guard rest.distance(from: end.upperBound, to: rest.endIndex) >= length else { break }
            let stop = rest.index(end.upperBound, offsetBy: length)
            responses.append(String(decoding: rest[..<stop], as: UTF8.self))
            rest = rest[stop...]
        }
        return responses
    }

    /// Everything the server sends until it closes its side, `isComplete` holds, or 10 s of silence.
    private func receive(until isComplete: (Data) -> Bool) -> Data {
        receiveEnding(until: isComplete).data
    }

    /// Everything the server sends, and how the sending ended (nil: `isComplete` held).
    private func receiveEnding(until isComplete: (Data) -> Bool) -> (data: Data, end: End?) {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { return (received, .closed) }
            if count < 0 { return (received, errno == EAGAIN || errno == EWOULDBLOCK ? .silence : .reset) }
            received.append(contentsOf: buffer[0..<count])
            if isComplete(received) { return (received, nil) }
        }
    }

    /// Everything the server sends until it closes its side, and how it ended, read on a thread of its own.
    func untilEnd() async -> (data: Data, end: End) {
        await withCheckedContinuation { continuation in
            Thread {
                let (data, end) = self.receiveEnding { _ in false }
                continuation.resume(returning: (data, end ?? .silence))
            }.start()
        }
    }

    /// Whether the server has sent anything (or closed) yet, without waiting or consuming it.
    var hasAnswer: Bool {
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Everything the server sends until it closes its side (or 10 s of silence).
    func receiveUntilClosed() -> Data {
        receive { _ in false }
    }

    /// Asks for a WebSocket on `path` and reads what the server sends until it closes its side: the
    /// upgrade's answer and the frames after it. For refusals the server sends right after the upgrade
    /// (a close frame with its code): read off the wire, not through a WebSocket client library, whose
    /// handling of a close frame arriving with the 101 answer is not under test here.
    func webSocketRefusal(path: String, headers: [String: String] = [:]) async -> WebSocketAnswer {
        var request = "GET \(path) HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        send(request + "\r\n")
        let data = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.receiveUntilClosed()) }.start()
        }
        let answer = WebSocketAnswer(data)
        // The client's half of the closing handshake: a masked close frame echoing the code.
        if let code = answer.closeCode {
            let mask: [UInt8] = [1, 2, 3, 4]
            let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
            send(Data([0x88, 0x80 | 2] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }))
        }
        return answer
    }

    /// Ends the sending side only (TCP half-close); the connection can still receive.
    func shutdownSending() {
        _ = shutdown(socket, Int32(SHUT_WR))
    }

    private var closed = false
    func close() {
        guard !closed else { return }
        closed = true
        #if canImport(Glibc)
        _ = Glibc.close(socket)
        #else
        _ = Darwin.close(socket)
        #endif
    }
}

/// What a server sent on a WebSocket request: the HTTP head and the (unmasked) frames after it.
struct WebSocketAnswer {
    var head: String
    var frames: [(opcode: UInt8, payload: [UInt8])] = []

    init(_ data: Data) {
        let bytes = [UInt8](data)
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else {
            head = String(decoding: bytes, as: UTF8.self)
            return
        }
        head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        var index = end.upperBound
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            var length = Int(bytes[index + 1] & 0x7F)
            index += 2
            let extra = length == 126 ? 2 : length == 127 ? 8 : 0
            guard index + extra <= bytes.count else { break }
            if extra > 0 {
                length = bytes[index..<(index + extra)].reduce(0) { $0 << 8 | Int($1) }
                index += extra
            }
            guard index + length <= bytes.count else { break }
            frames.append((opcode, Array(bytes[index..<(index + length)])))
            index += length
        }
    }

    /// The status code of the HTTP answer (101 for an upgrade).
    var status: Int? { head.split(separator: " ").dropFirst().first.flatMap { Int($0) } }

    private var close: [UInt8]? { frames.first { $0.opcode == 0x8 }?.payload }

    /// The close frame's code and reason.
    var closeCode: Int? { close.flatMap { $0.count >= 2 ? Int($0[0]) << 8 | Int($0[1]) : nil } }
    var closeReason: String? { close.map { String(decoding: $0.dropFirst(2), as: UTF8.self) } }
}
