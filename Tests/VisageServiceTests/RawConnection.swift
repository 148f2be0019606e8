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

    init(port: Int) throws {
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
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    func send(_ text: String) { send(Data(text.utf8)) }

    func send(_ data: Data) {
        _ = data.withUnsafeBytes { buffer in
            #if canImport(Glibc)
            Glibc.send(socket, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            #else
            Darwin.send(socket, buffer.baseAddress, buffer.count, 0)
            #endif
        }
    }

    /// The response, read on a thread of its own: a blocking read on Swift's cooperative pool would
    /// starve the server under test, which runs on the same pool.
    func response() async -> String {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.receive()) }.start()
        }
    }

    /// Everything the server sends until it closes, the response is complete, or 10 s of silence.
    func receive() -> String {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
            if let text = String(data: received, encoding: .utf8), let end = text.range(of: "\r\n\r\n"),
               let length = text[..<end.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") })
                .flatMap({ Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }),
               received.count >= text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound.samePosition(in: text.utf8)!) + length {
                break
            }
        }
        return String(decoding: received, as: UTF8.self)
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
