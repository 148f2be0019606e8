import Foundation
import Logging
import Visage

/// The log of a full service's 503s (`overloaded`): the first refusal after a quiet second is logged as
/// every answer is (one "answered" line), the ones that follow within that second are counted and logged
/// together, one "refused" line a second per route and method with their number and slowest time, while
/// refusals go on.
///
/// Under overload most answers are refusals (97 % of them with wrk resending each 503 at once), and one
/// formatted, written log line each was about 5 % of the server's CPU, taken from the inferences. Every
/// refusal is still counted in `/metrics` (`visage_rejections_total`, `visage_http_requests_total`).
final class RefusalLog: @unchecked Sendable {
    let logger: Logger
    let window: Duration
    private let lock = NSLock()
    /// When the current window ends; nil when no refusal came in the last `window`.
    private var windowEnd: ContinuousClock.Instant?
    /// The refusals counted in the current window, by route and method.
    private var pending: [Key: Tally] = [:]
    private var flushScheduled = false

    private struct Key: Hashable, Comparable {
        let route: String
        let method: String
        static func < (a: Key, b: Key) -> Bool { (a.route, a.method) < (b.route, b.method) }
    }

    private struct Tally {
        var count = 0
        var slowest: Duration = .zero
    }

    init(logger: Logger, window: Duration = .seconds(1)) {
        (self.logger, self.window) = (logger, window)
    }

    /// Logs or counts one 503 `overloaded` answer on `route`.
    func refused(route: String, method: String, requestBytes: String?, duration: Duration) {
        let now = ContinuousClock.now
        let (first, schedule) = lock.withLock { () -> (Bool, ContinuousClock.Instant?) in
            // Inside a window (or its flush not run yet): counted, and the window's end flushes the count.
            if !pending.isEmpty || windowEnd.map({ now < $0 }) == true {
                let key = Key(route: route, method: method)
                var tally = pending[key, default: Tally()]
                (tally.count, tally.slowest) = (tally.count + 1, max(tally.slowest, duration))
                pending[key] = tally
                guard !flushScheduled else { return (false, nil) }
                flushScheduled = true
                return (false, windowEnd ?? now)
            }
            windowEnd = now + window
            return (true, nil)
        }
        if first {
            ErrorAndMetricsMiddleware.logAnswered(
                logger, route: route, method: method, status: 503, requestBytes: requestBytes, duration: duration,
                code: ErrorCode.overloaded.rawValue)
        }
        if let schedule {
            _ = RequestTimers.shared.schedule(at: schedule) { self.flush() }
        }
    }

    /// Logs the refusals counted in the window that just ended, one line per route and method; the window
    /// goes on while they came.
    private func flush() {
        let counted = lock.withLock { () -> [Key: Tally] in
            let counted = pending
            (pending, flushScheduled) = ([:], false)
            // Refusals in the window just ended: the next one is counted in a new window, not logged alone.
            windowEnd = counted.isEmpty ? nil : ContinuousClock.now + window
            return counted
        }
        for (key, tally) in counted.sorted(by: { $0.key < $1.key }) {
            logger.info(
                "refused",
                metadata: [
                    "route": .string(key.route), "method": .string(key.method), "status": "503",
                    "code": .string(ErrorCode.overloaded.rawValue), "count": .stringConvertible(tally.count),
                    "slowestMilliseconds": .stringConvertible((Double(ServiceMetrics.nanoseconds(tally.slowest)) / 1e6 * 10).rounded() / 10),
                ])
        }
    }
}
