import Foundation
import HTTPTypes

/// The bytes that request bodies still arriving may hold, all together.
///
/// A request reads its body before it takes an admission place (``Admission``), so a client that drips
/// its body (slowloris) holds only the bytes it has sent and never an inference place: the places go to
/// complete requests. Without a place to bound them, these bodies are bounded here instead, by the memory
/// they hold (each also by the byte limit and the slow-body timeout), and a body that would take the
/// budget past its limit is refused with 503 and `Retry-After`. The default limit is what the admission
/// places could hold in bodies before: (inferences + queue) × the body limit.
final class BodyBudget: @unchecked Sendable {
    let limit: Int
    let retryAfterSeconds: Int
    private let lock = NSLock()
    private var held = 0

    init(limit: Int, retryAfterSeconds: Int) {
        (self.limit, self.retryAfterSeconds) = (limit, retryAfterSeconds)
    }

    /// Bytes held now by bodies being received.
    var inUse: Int { lock.withLock { held } }

    /// Takes `bytes` more for a body, or throws `overloaded` when the budget would pass its limit.
    func take(_ bytes: Int) throws(ServiceError) {
        let taken = lock.withLock { () -> Bool in
            guard held + bytes <= limit else { return false }
            held += bytes
            return true
        }
        guard taken else {
            var headers = HTTPFields()
            headers[.retryAfter] = "\(retryAfterSeconds)"
            throw ServiceError(
                .overloaded, "request bodies being received hold all of their \(limit) bytes; retry after \(retryAfterSeconds) s",
                headers: headers)
        }
    }

    /// Gives back what ``take(_:)`` took.
    func give(_ bytes: Int) {
        lock.withLock { held -= bytes }
    }
}
