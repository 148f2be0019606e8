import Foundation

/// The lines of a `--files-from` list, read one at a time as they arrive, so a list on stdin is
/// processed while it is still being written (Spark's `RDD.pipe` feeds stdin and reads stdout at
/// once) and a list of any length needs no more memory than its longest line.
///
/// Every line is one path exactly as written, without its line ending (`\n` or `\r\n`); an empty line
/// is an empty path, which then gets an error record, so output lines match input lines one to one.
/// Unchecked `Sendable`: it moves to the lister thread and only that thread reads it.
final class PathList: IteratorProtocol, @unchecked Sendable {
    private let file: UnsafeMutablePointer<FILE>
    private let closes: Bool
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0
    let name: String

    /// `-` is stdin.
    init(_ path: String) throws {
        name = path == "-" ? "stdin" : path
        if path == "-" {
            // A stream of its own over descriptor 0, rather than the C library's shared `stdin` global.
            guard let input = fdopen(STDIN_FILENO, "r") else {
                throw PathListError(description: "--files-from -: \(String(cString: strerror(errno)))")
            }
            file = input
            closes = false
        } else {
            guard let opened = fopen(path, "r") else {
                throw PathListError(description: "--files-from \(path): \(String(cString: strerror(errno)))")
            }
            var status = stat()
            if fstat(fileno(opened), &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                fclose(opened)
                throw PathListError(description: "--files-from \(path): is a folder, not a list of paths")
            }
            file = opened
            closes = true
        }
    }

    deinit {
        free(buffer)
        if closes { fclose(file) }
    }

    /// The next path; nil at the end of the list. A read error ends the list and is kept in `error`.
    func next() -> String? {
        let count = getline(&buffer, &capacity, file)
        guard count >= 0, let buffer else {
            if ferror(file) != 0 { error = PathListError(description: "--files-from \(name): \(String(cString: strerror(errno)))") }
            return nil
        }
        var length = count
        if length > 0, buffer[length - 1] == 0x0A { length -= 1 }
        if length > 0, buffer[length - 1] == 0x0D { length -= 1 }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    private(set) var error: PathListError?
}

struct PathListError: Error, CustomStringConvertible {
    var description: String
}
