import Foundation

/// `--output DIR`: one result file per image at the image's path, as given, below DIR with `.json`
/// added (`photos/2024/a.jpg` → `DIR/photos/2024/a.jpg.json`), so a folder run and a list of the same
/// paths write the same tree, and `a.jpg` and `a.png` never share a file.
///
/// Files appear atomically: the bytes go to a hidden temporary file in the same folder, which is
/// flushed to disk and then renamed over the final name, and the folder is flushed after the rename.
/// A killed run leaves complete results and, at worst, hidden `.NAME.json.tmp-HOST-PID-N` files, never a
/// partial result; the next run over the same folder removes those of dead processes (``StaleTemporaries``).
struct OutputTree: Sendable {
    let root: String
    private let stale = StaleTemporaries()

    init(root: String) {
        self.root = root
    }

    /// The result file of `path`; throws for a path that would leave DIR (a `..` component).
    func file(for path: String) throws(OutputTreeError) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) where component != "." {
            guard component != ".." else {
                throw OutputTreeError(description: "\(path): a path with .. cannot be mirrored under --output \(root)")
            }
            components.append(component)
        }
        guard !components.isEmpty else {
            throw OutputTreeError(description: "\"\(path)\" names no file to mirror under --output \(root)")
        }
        return (root.hasSuffix("/") ? root : root + "/") + components.joined(separator: "/") + ".json"
    }

    func exists(for path: String) -> Bool {
        guard let file = try? file(for: path) else { return false }
        return FileManager.default.fileExists(atPath: file)
    }

    /// Writes `data` as the result of `path`, atomically.
    func write(_ data: Data, for path: String) throws(OutputTreeError) {
        let final = try file(for: path)
        let folder = (final as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw OutputTreeError(description: "cannot create \(folder): \(error.localizedDescription)")
        }
        stale.sweep(folder)
        let temporary = folder + "/" + StaleTemporaries.temporaryName(for: (final as NSString).lastPathComponent)
        func failure(_ what: String) -> OutputTreeError {
            OutputTreeError(description: "cannot \(what) \(temporary): \(String(cString: strerror(errno)))")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("create") }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var done = 0
            while done < bytes.count {
                let n = writeBytes(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return false }
                done += n
            }
            return true
        }
        guard written, fsync(descriptor) == 0 else {
            let error = failure("write")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, final) == 0 else {
            let error = failure("rename")
            unlink(temporary)
            throw error
        }
        // The rename is durable once the folder's entry is on disk.
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }
}

struct OutputTreeError: Error, CustomStringConvertible {
    var description: String
}

/// The C `write`, named apart from ``OutputTree/write(_:for:)``.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
