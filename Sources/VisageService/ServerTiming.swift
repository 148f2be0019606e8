import Foundation
import HTTPTypes
import Visage

/// The durations one request's answer reports in its `Server-Timing` header (W3C Server Timing):
///
///     Server-Timing: body;dur=0.412, queue;dur=1.250, decode;dur=1.031, detect;dur=2.207, total;dur=5.104
///
/// - `body`: receiving the request body (from the head's arrival on, so a slow client shows here);
/// - `queue`: waiting for an inference slot and its thread (``Admission``);
/// - each pipeline stage, as `timings` names them (`decode`, `detect`, `mesh` …; a batch sums an image's
///   stages by name, and a name's characters outside an HTTP token become `-`);
/// - `total`: from the arrival of the request's head on the event loop to the answer being ready to
///   write, as `visage_http_request_duration_seconds` counts it. Every HTTP answer carries `total`, the
///   early 503s (``EarlyRefusal``) included.
///
/// Milliseconds with three decimals: the histogram's buckets are a millisecond wide, too coarse to tell
/// whether an overloaded service's p99 is within twice the unloaded one, and a client (or
/// `Scripts/benchmark-serve.py`) reads each answer's own figure here. Names and durations only: nothing
/// from the request's data.
final class ServerTiming: @unchecked Sendable {
    static let name = HTTPField.Name("Server-Timing")!

    private let lock = NSLock()
    private var entries: [(name: String, nanoseconds: Int64)] = []

    /// Adds `duration` to the entry `name` (made on first use; entries keep their first order).
    func record(_ name: String, _ duration: Duration) {
        let nanoseconds = ServiceMetrics.nanoseconds(duration)
        lock.withLock {
            if let index = entries.firstIndex(where: { $0.name == name }) {
                entries[index].nanoseconds += nanoseconds
            } else {
                entries.append((name, nanoseconds))
            }
        }
    }

    /// Adds the pipeline's stage timings.
    func record(_ timings: [StageTiming]) {
        for timing in timings {
            record(timing.stage, .nanoseconds(Int64((timing.milliseconds * 1e6).rounded())))
        }
    }

    /// The header's value: every recorded entry, then `total`.
    func header(total: Duration) -> String {
        var parts = lock.withLock { entries.map { Self.entry(Self.token($0.name), nanoseconds: $0.nanoseconds) } }
        parts.append(Self.entry("total", nanoseconds: ServiceMetrics.nanoseconds(total)))
        return parts.joined(separator: ", ")
    }

    /// `name;dur=MS`, milliseconds with three decimals (never negative).
    static func entry(_ name: String, nanoseconds: Int64) -> String {
        let microseconds = max(0, (nanoseconds + 500) / 1000)
        let fraction = microseconds % 1000
        let padded = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(name);dur=\(microseconds / 1000).\(padded)"
    }

    /// `name` with every character outside an HTTP token (RFC 9110) replaced by `-`: "contour art" →
    /// "contour-art".
    static func token(_ name: String) -> String {
        guard name.utf8.contains(where: { !isTokenByte($0) }) else { return name }
        return String(decoding: name.utf8.map { isTokenByte($0) ? $0 : UInt8(ascii: "-") }, as: UTF8.self)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
