import Foundation
import Hummingbird
import NIOCore

/// Reads a request body within the byte limit and the slow-body timeout.
///
/// A `Content-Length` above the limit is refused before anything is read; a body without one is read
/// only until it passes the limit. A body that has not arrived within the timeout is `request_timeout`
/// (408): a client that drips bytes cannot hold an admission place for long.
struct RequestBodyReader {
    var maxBytes: Int
    var timeout: Duration

    /// 413 from the header alone, before the body is read.
    func checkDeclaredLength(_ request: Request) throws(ServiceError) {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > maxBytes {
            throw Self.tooLarge(maxBytes)
        }
    }

    /// The whole body, refused with 413 as soon as it passes the limit. The slow-body timeout is
    /// ``AnalysisGate``'s timer, which runs beside this.
    func read(_ body: RequestBody, declaredLength: Int?) async throws -> ByteBuffer {
        var collected: ByteBuffer?
        for try await part in body {
            guard var gathered = collected else {
                guard part.readableBytes <= maxBytes else { throw Self.tooLarge(maxBytes) }
                // The first part as it is; a declared length sizes the buffer once for the rest.
                if let declaredLength, declaredLength > part.readableBytes, declaredLength <= maxBytes {
                    var buffer = ByteBufferAllocator().buffer(capacity: declaredLength)
                    var part = part
                    buffer.writeBuffer(&part)
                    collected = buffer
                } else {
                    collected = part
                }
                continue
            }
            guard gathered.readableBytes + part.readableBytes <= maxBytes else { throw Self.tooLarge(maxBytes) }
            collected = nil  // one owner: the write below does not copy the buffer first
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
