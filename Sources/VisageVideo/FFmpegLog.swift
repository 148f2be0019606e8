import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// ffmpeg's log (its standard error), read on a thread of its own so the pipe never fills: the frame
/// timestamps `showinfo` logs wait in order for ``nextTimestamp()``, and the last other lines are kept
/// for error messages.
///
/// ffmpeg logs a frame in the filter chain before it writes the frame's pixels, so by the time a
/// frame has been read from standard output its timestamp is in the log or on its way. Memory stays
/// small: ffmpeg cannot run more than a pipe's worth of frames ahead of the reader, lines are cut at
/// ``maximumLineLength`` and only ``keptLineCount`` other lines are kept.
package final class FFmpegLog: @unchecked Sendable {  // All state is guarded by `condition`.
    /// A frame's number as `showinfo` counted it and its time in seconds (nil when ffmpeg had no timestamp).
    package struct Timestamp: Equatable, Sendable {
        package var number: Int
        package var seconds: Double?

        package init(number: Int, seconds: Double?) {
            self.number = number
            self.seconds = seconds
        }
    }

    package static let maximumLineLength = 16 << 10
    package static let keptLineCount = 8

    private let condition = NSCondition()
    private var timestamps: [Timestamp] = []
    private var head = 0
    private var lines: [String] = []
    private var ended = false

    /// Starts reading `descriptor` until the writer closes it. The reader works on its own duplicate of
    /// the descriptor, so the caller may close `descriptor` at any time.
    package init(descriptor: Int32) {
        let descriptor = dup(descriptor)
        Thread.detachNewThread { [self] in
            defer { if descriptor >= 0 { close(descriptor) } }
            var parser = Parser()
            var line: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 14)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                for byte in buffer[..<count] {
                    if byte == 0x0A || byte == 0x0D {
                        if !line.isEmpty { take(parser.parse(String(decoding: line, as: UTF8.self))) }
                        line.removeAll(keepingCapacity: true)
                    } else if line.count < Self.maximumLineLength {
                        line.append(byte)
                    }
                }
            }
            if !line.isEmpty { take(parser.parse(String(decoding: line, as: UTF8.self))) }
            condition.withLock {
                ended = true
                condition.broadcast()
            }
        }
    }

    /// The next frame's timestamp, waiting for ffmpeg to log it; nil once the log has ended without one.
    package func nextTimestamp() -> Timestamp? {
        condition.withLock {
            while head == timestamps.count && !ended { condition.wait() }
            guard head < timestamps.count else { return nil }
            defer {
                head += 1
                if head > 256 {
                    timestamps.removeFirst(head)
                    head = 0
                }
            }
            return timestamps[head]
        }
    }

    /// The last lines that were not frame reports, once ffmpeg has closed its log; "" when there were none.
    package var errorText: String {
        condition.withLock {
            while !ended { condition.wait() }
            return lines.suffix(3).joined(separator: " / ")
        }
    }

    /// Whether ffmpeg's log said that no stream matched `-map` (the input has no video stream).
    package var reportsNoMatchingStream: Bool {
        condition.withLock {
            while !ended { condition.wait() }
            return lines.contains { $0.contains("matches no streams") }
        }
    }

    private func take(_ parsed: Parser.Result) {
        condition.withLock {
            switch parsed {
            case .timestamp(let timestamp):
                timestamps.append(timestamp)
                condition.broadcast()
            case .other(let line):
                lines.append(line)
                if lines.count > Self.keptLineCount { lines.removeFirst() }
            case .ignored:
                break
            }
        }
    }

    /// Turns log lines into timestamps, remembering the time base `showinfo` reported.
    private struct Parser {
        enum Result {
            case timestamp(Timestamp)
            case other(String)
            case ignored
        }

        var timeBase: (numerator: Int64, denominator: Int64)?

        mutating func parse(_ text: String) -> Result {
            let line = text.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { return .ignored }
            guard line.hasPrefix("[Parsed_showinfo_") else { return .other(line) }
            switch FFmpegShowInfo(line: line[...]) {
            case .timeBase(let numerator, let denominator):
                timeBase = (numerator, denominator)
                return .ignored
            case .frame(let number, let pts, let ptsTime):
                var seconds = ptsTime
                if let pts, let timeBase {
                    seconds = Double(pts) * Double(timeBase.numerator) / Double(timeBase.denominator)
                }
                return .timestamp(Timestamp(number: number, seconds: seconds))
            case nil:
                return .ignored  // showinfo's other lines: side data, colour information
            }
        }
    }
}
