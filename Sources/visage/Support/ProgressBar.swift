import Foundation

/// A one-line progress bar redrawn in place on stderr: done of total, images per second and, when the
/// total is known, the time left. Redrawn at most ten times a second.
final class ProgressBar {
    /// Nil while the number of images is not known (a list read from stdin).
    var total: Int?
    private let start = Stopwatch.wallMilliseconds()
    private var lastDrawn = -Double.infinity

    init(total: Int?) {
        self.total = total
    }

    func show(done: Int) {
        let now = Stopwatch.wallMilliseconds()
        guard now - lastDrawn >= 100 || done == total else { return }
        lastDrawn = now
        let seconds = (now - start) / 1000
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var line = "\r"
        if let total {
            let width = 30
            let filled = total > 0 ? min(width, width * done / total) : width
            line += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] \(done)/\(total)"
        } else {
            line += "\(done) images"
        }
        line += String(format: "  %.1f images/s", rate)
        if let total, rate > 0, done < total {
            line += "  ETA " + Self.duration(Double(total - done) / rate)
        }
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
    }

    func clear() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    /// `42 s`, `3 min 05 s`, `2 h 07 min`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return String(format: "%d min %02d s", whole / 60, whole % 60) }
        return String(format: "%d h %02d min", whole / 3600, whole % 3600 / 60)
    }
}
