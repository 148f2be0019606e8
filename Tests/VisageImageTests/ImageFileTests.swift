import Foundation
import Testing
import VisageImage

/// `readImageFile` (the batch's and the service's file reader) returns exactly the file's bytes, for
/// files shorter than the 64-byte signature it reads first and for longer ones.
struct ImageFileTests {
    @Test("The bytes read are the file's", arguments: ["jpeg-444.jpg", "exif-6.png", "bad-truncated.jpg"])
    func bytesAreTheFiles(_ name: String) throws {
        let url = Fixtures.url(name)
        #expect(try readImageFile(url) == Data(contentsOf: url))
    }

    @Test func aFileShorterThanTheSignatureReadIsReadWhole() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("visage-tiny-\(UUID().uuidString).pgm")
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = Data("P5 1 1 255\n".utf8) + Data([200])
        try bytes.write(to: url)
        let read = try readImageFile(url)
        #expect(read == bytes)
        #expect(try Image(data: read).packedPixels == [200])
    }

    @Test func aFileExactlyAtTheLimitIsReadAndOneByteMoreIsRefused() throws {
        let url = Fixtures.url("jpeg-444.jpg")
        let size = try Data(contentsOf: url).count
        #expect(try readImageFile(url, maximumBytes: size).count == size)
        #expect(throws: ImageError.unreadable(path: url.path, reason: "\(size) bytes exceed the \(size - 1)-byte limit for image files")) {
            try readImageFile(url, maximumBytes: size - 1)
        }
    }

    /// `readImageFile(atPath:)` skips the URL only for paths the URL would keep as they are: its result or
    /// error (whose message names the path) is the URL reader's for relative paths, "~", trailing slashes,
    /// NUL, folders, missing files and files too large, as for plain absolute paths.
    @Test func readingAPathIsReadingItsFileURL() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("visage-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: Fixtures.url("jpeg-444.jpg"))
        let name = folder.path + "/a b%41 é.jpg"
        try bytes.write(to: URL(fileURLWithPath: name))
        // The same file by a path relative to the working directory.
        let relative = String(repeating: "../", count: FileManager.default.currentDirectoryPath.split(separator: "/").count) + name.dropFirst()
        let paths = [
            name, folder.path + "/./a b%41 é.jpg", folder.path + "//a b%41 é.jpg", folder.path + "/../" + folder.lastPathComponent + "/a b%41 é.jpg",
            name + "/", folder.path, folder.path + "/", folder.path + "/missing.jpg", "missing.jpg", "~/missing.jpg", "", "/",
            name + "\u{0}x", relative,
        ]
        for path in paths {
            let viaURL = Result { () throws(ImageError) in try readImageFile(URL(fileURLWithPath: path, isDirectory: false)) }
            let viaPath = Result { () throws(ImageError) in try readImageFile(atPath: path) }
            #expect(viaPath == viaURL, "\(path.debugDescription)")
            let small = Result { () throws(ImageError) in try readImageFile(atPath: path, maximumBytes: 100) }
            #expect(small == Result { () throws(ImageError) in try readImageFile(URL(fileURLWithPath: path, isDirectory: false), maximumBytes: 100) })
        }
        #expect(try readImageFile(atPath: name) == bytes)
        #expect(try readImageFile(atPath: relative) == bytes)
    }

    /// The paths read without a URL are exactly those whose file URL's path is the path itself.
    @Test func plainAbsolutePathsAreTheirFileURLsPaths() {
        let pieces = ["/", "/", ".", "..", "~", "%", "%2F", "%00", " ", "?", "#", ";", "\\", ":", "é", "e\u{301}", "\u{0}", "a", "\u{200B}", "💡", "\n", "[", "@", "&", "+"]
        var generator = SeededGenerator(state: 0x9A7_5EED)
        for _ in 0..<20_000 {
            var path = Bool.random(using: &generator) ? "/" : ""
            for _ in 0..<Int.random(in: 0...8, using: &generator) { path += pieces.randomElement(using: &generator)! }
            let kept = Array(URL(fileURLWithPath: path, isDirectory: false).path.utf8) == Array(path.utf8)
            if isPlainAbsolutePath(path) { #expect(kept, "\(path.debugDescription)") }
        }
        #expect(isPlainAbsolutePath("/tmp/a.jpg") && !isPlainAbsolutePath("tmp/a.jpg") && !isPlainAbsolutePath("/tmp/") && !isPlainAbsolutePath("/a\u{0}"))
    }
}
