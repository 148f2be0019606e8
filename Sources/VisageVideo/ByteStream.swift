import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered reading from a file descriptor: a file, a pipe or standard input.
///
/// Reads block until data arrives or the writer closes, which is what a pipe from a camera needs.
package final class ByteStream {
    private let descriptor: Int32
    private let closesDescriptor: Bool
    /// Shown in errors.
    package let name: String
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0, end = 0

    /// Opens a regular file or FIFO for reading.
    package init(path: String) throws(VideoError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR else {
            close(descriptor)
            throw .unreadable(path: path, reason: "is a directory")
        }
        self.descriptor = descriptor
        closesDescriptor = true
        name = path
    }

    /// Reads `descriptor` without taking ownership (standard input, a pipe someone else closes).
    package init(descriptor: Int32, name: String, closesDescriptor: Bool = false) {
        self.descriptor = descriptor
        self.closesDescriptor = closesDescriptor
        self.name = name
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// Refills an empty buffer; false at the end of the stream.
    private func fill() throws(VideoError) -> Bool {
        if start < end { return true }
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw .unreadable(path: name, reason: String(cString: strerror(errno))) }
            (start, end) = (0, n)
            return n > 0
        }
    }

    /// The bytes up to the next newline (which is consumed, not returned); nil when the stream ends
    /// before any byte.
    /// - Throws: ``VideoError/corrupt(format:reason:)`` when no newline comes within `maximumLength` bytes.
    package func readLine(maximumLength: Int, format: String) throws(VideoError) -> [UInt8]? {
        var line: [UInt8] = []
        while try fill() {
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                line += buffer[start..<newline]
                start = newline + 1
                guard line.count <= maximumLength else { break }
                return line
            }
            line += buffer[start..<end]
            start = end
            guard line.count <= maximumLength else { break }
        }
        if line.isEmpty { return nil }
        if line.count > maximumLength {
            throw .corrupt(format: format, reason: "a header line is longer than \(maximumLength) bytes")
        }
        throw .corrupt(format: format, reason: "the stream ends inside a header line")
    }

    /// Fills `destination` as far as the stream allows; returns the number of bytes read.
    package func readFully(into destination: UnsafeMutableRawBufferPointer) throws(VideoError) -> Int {
        var done = 0
        while done < destination.count, try fill() {
            let n = min(end - start, destination.count - done)
            buffer.withUnsafeBytes { (destination.baseAddress! + done).copyMemory(from: $0.baseAddress! + start, byteCount: n) }
            start += n
            done += n
        }
        return done
    }

    /// Reads up to `count` bytes into `bytes`, replacing its contents; returns how many arrived (fewer
    /// only at the end of the stream).
    ///
    /// `bytes` grows as data arrives instead of being sized to `count` first, so a header that declares
    /// a huge frame costs memory for the bytes actually sent, not for the claim. Its capacity is kept
    /// for the next call.
    package func readGrowing(_ count: Int, into bytes: inout [UInt8]) throws(VideoError) -> Int {
        bytes.removeAll(keepingCapacity: true)
        while bytes.count < count, try fill() {
            let n = min(end - start, count - bytes.count)
            bytes.append(contentsOf: buffer[start..<(start + n)])
            start += n
        }
        return bytes.count
    }

    /// Whether the stream has ended (no byte left to read).
    package func isAtEnd() throws(VideoError) -> Bool { try !fill() }
}
