import Foundation

/// What ffmpeg's `showinfo` filter logs, read back for frame timestamps.
///
/// `showinfo` sits last in the filter chain and logs, for every frame it passes on, its number and
/// its presentation timestamp as an integer in the filter's time base, which it logs once when the
/// chain is configured:
///
/// ```
/// [Parsed_showinfo_0 @ 0x55b8330c1b00] config in time_base: 1/90000, frame_rate: 30/1
/// [Parsed_showinfo_0 @ 0x55b8330c1b00] n:   1 pts:   3000 pts_time:0.0333333 pos: 1657 fmt:yuv420p …
/// ```
///
/// Time is computed from the integer `pts` and the time base: `pts_time` is printed with six
/// significant digits only, 10 ms steps past 1000 s. Lines of older ffmpeg versions that do not log
/// the time base fall back to `pts_time`.
package enum FFmpegShowInfo: Equatable, Sendable {
    /// The filter's input time base, `numerator/denominator` seconds per tick.
    case timeBase(numerator: Int64, denominator: Int64)
    /// Frame `number` (from 0, in output order) with its timestamp; nil fields when ffmpeg printed `NOPTS`.
    case frame(number: Int, pts: Int64?, ptsTime: Double?)

    private static let prefix = "[Parsed_showinfo_"

    /// The event a line of ffmpeg's log reports, or nil for any other line.
    package init?(line: Substring) {
        guard line.hasPrefix(Self.prefix), let close = line.firstIndex(of: "]") else { return nil }
        let body = line[line.index(after: close)...].drop { $0 == " " }
        if body.hasPrefix("config in time_base:") {
            let value = Self.value(after: "time_base:", in: body) ?? ""
            let parts = value.split(separator: "/").map { Int64($0.trimmingCharacters(in: [","])) }
            guard parts.count == 2, let numerator = parts[0], let denominator = parts[1], numerator > 0, denominator > 0
            else { return nil }
            self = .timeBase(numerator: numerator, denominator: denominator)
        } else if body.hasPrefix("n:") {
            guard let number = Self.value(after: "n:", in: body).flatMap({ Int($0) }), number >= 0,
                  let pts = Self.value(after: "pts:", in: body), let ptsTime = Self.value(after: "pts_time:", in: body)
            else { return nil }
            self = .frame(number: number, pts: Int64(pts), ptsTime: Double(ptsTime).flatMap { $0.isFinite ? $0 : nil })
        } else {
            return nil
        }
    }

    /// The word after `key` (and any spaces), up to the next space.
    private static func value(after key: String, in text: Substring) -> Substring? {
        var rest = text[...]
        while let range = rest.range(of: key) {
            // A key must start a word: `pts:` is not the tail of `pts_time:`, nor `n:` of `pts_time:`.
            if range.lowerBound == text.startIndex || text[text.index(before: range.lowerBound)] == " " {
                let value = text[range.upperBound...].drop { $0 == " " }.prefix { $0 != " " }
                return value.isEmpty ? nil : value
            }
            rest = text[range.upperBound...]
        }
        return nil
    }
}
