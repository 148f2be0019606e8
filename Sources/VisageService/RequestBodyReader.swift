import Foundation
import Hummingbird
import NIOCore

/// Reads a request body within the byte limit and the slow-body timeout.
///
/// A `Content-Length` above the limit is refused before anything is read; a body without one is read
/// only until it passes the limit. A body that has not arrived within the timeout is `request_timeout`
/// (408). Bodies are read before their request takes an admission place, under a shared ``BodyBudget``.
struct RequestBodyReader {
    var maxBytes: Int
    var timeout: Duration

    /// 413 from the header alone, before the body is read.
    func checkDeclaredLength(_ request: Request) throws(ServiceError) {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > maxBytes {
            throw Self.tooLarge(maxBytes)
        }
    }

    /// The whole body, refused with 413 as soon as it passes the limit, and with 503 when the bodies being
    /// received would hold more than `budget` allows. The memory it holds is taken from `budget` before it
    /// is allocated and given back when this returns: the buffer grows by doubling as bytes arrive, never
    /// to a declared length, so a client that declares a large body and drips it holds only what it sent.
    /// The slow-body timeout is ``AnalysisGate``'s timer, which runs beside this.
    func read(_ body: RequestBody, budget: BodyBudget) async throws -> ByteBuffer {
        var collected: ByteBuffer?
        var charged = 0
        defer { budget.give(charged) }
        for try await part in body {
            guard var gathered = collected else {
                guard part.readableBytes <= maxBytes else { throw Self.tooLarge(maxBytes) }
                try budget.take(part.readableBytes)
                charged += part.readableBytes
                collected = part
                continue
            }
            let needed = gathered.readableBytes + part.readableBytes
            guard needed <= maxBytes else { throw Self.tooLarge(maxBytes) }
            collected = nil  // one owner: the growth and the write below do not copy the buffer first
            if gathered.writableBytes < part.readableBytes {
                // A power of two, as NIO allocates, so the bytes taken are the bytes allocated.
                var capacity = 4096
                while capacity < gathered.writerIndex + part.readableBytes { capacity *= 2 }
                try budget.take(max(0, capacity - charged))
                charged = max(charged, capacity)
                gathered.reserveCapacity(capacity)
            }
            var part = part
            gathered.writeBuffer(&part)
            collected = gathered
        }
        return collected ?? ByteBuffer()
    }

    static func timedOut(_ timeout: Duration) -> ServiceError {
        ServiceError(.requestTimeout, "the request body did not arrive within \(timeout)")
    }

    static func tooLarge(_ limit: Int) -> ServiceError {
        ServiceError(.payloadTooLarge, "the request body is larger than the limit of \(limit) bytes")
    }
}
