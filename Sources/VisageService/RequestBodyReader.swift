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

    func read(_ body: RequestBody) async throws -> ByteBuffer {
        let (maxBytes, timeout) = (self.maxBytes, self.timeout)
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                var collected = ByteBuffer()
                for try await part in body {
                    guard collected.readableBytes + part.readableBytes <= maxBytes else { throw Self.tooLarge(maxBytes) }
                    var part = part
                    collected.writeBuffer(&part)
                }
                return collected
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard case .some(.some(let buffer)) = try await group.next() else {
                throw ServiceError(.requestTimeout, "the request body did not arrive within \(timeout)")
            }
            return buffer
        }
    }

    static func tooLarge(_ limit: Int) -> ServiceError {
        ServiceError(.payloadTooLarge, "the request body is larger than the limit of \(limit) bytes")
    }
}
