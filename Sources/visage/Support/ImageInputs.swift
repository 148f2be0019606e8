import Foundation
import Visage

/// The image files named on a command line: files as given, folders replaced by the image files
/// directly inside them (or, with `recursive`, anywhere below them), sorted by name. A path that does
/// not exist is kept, so that processing it reports the error with its name.
///
/// Paths are produced lazily, one folder listing at a time, so a tree of millions of files is never
/// held in memory at once. Each path is the folder as the user wrote it joined with the names below
/// it (`photos/` → `photos/a.jpg`), which is what `find photos` prints too.
enum ImageInputs {
    static let extensions = ImageFileFormat.fileExtensions

    static func expand(_ paths: [String], recursive: Bool = false) -> [String] {
        Array(IteratorSequence(Walk(paths, recursive: recursive)))
    }

    static func isImageName(_ name: String) -> Bool {
        extensions.contains((name as NSString).pathExtension.lowercased())
    }

    /// Depth-first, each folder's entries sorted by name, files and folders interleaved as they sort.
    /// Symbolic links to folders below a given folder are not followed (as `find`), so a link loop
    /// cannot make the walk endless.
    struct Walk: IteratorProtocol {
        /// Paths still to visit, last first: the given ones, then each listed folder's entries.
        private var pending: [(path: String, given: Bool)]
        let recursive: Bool

        init(_ paths: [String], recursive: Bool) {
            pending = paths.reversed().map { ($0, true) }
            self.recursive = recursive
        }

        mutating func next() -> String? {
            while let (path, given) = pending.popLast() {
                guard given || recursive, Self.isFolder(path, followingLinks: given) else {
                    if given || ImageInputs.isImageName(path) { return path }
                    continue
                }
                // A folder that cannot be listed is kept as an input: processing it reports why.
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return path }
                let base = path.hasSuffix("/") ? path : path + "/"
                for name in names.sorted().reversed() {
                    let child = base + name
                    if recursive || (ImageInputs.isImageName(name) && !Self.isFolder(child, followingLinks: true)) {
                        pending.append((child, false))
                    }
                }
            }
            return nil
        }

        static func isFolder(_ path: String, followingLinks: Bool) -> Bool {
            var status = stat()
            let result = followingLinks ? stat(path, &status) : lstat(path, &status)
            return result == 0 && (status.st_mode & S_IFMT) == S_IFDIR
        }
    }
}
