import Foundation
import Testing

/// `visage info` and `visage detect` on HEIC, AVIF, WebP, TIFF, GIF and BMP, as a user runs them.
@Suite struct FormatsCommandTests {
    static let fixtures = "Tests/VisageImageTests/Fixtures/formats"

    static func environment(disabling codecs: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["VISAGE_DISABLE_CODECS"] = codecs
        return environment
    }

    @Test func listsEveryFormatWithItsDecoder() throws {
        let result = try CLIRunner.run(["info", "--formats"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.map { String($0.prefix(11)).trimmingCharacters(in: .whitespaces) } == [
            "JPEG", "PNG", "PPM/PGM", "HEIC/HEIF", "AVIF", "WebP", "TIFF", "GIF", "BMP",
        ])
        #expect(lines[0] == "JPEG       libjpeg (linked)")
        #expect(lines[7] == "GIF        built in")
        // This machine has the run-time libraries (the stock image does): each line names soname, version, package.
        for (line, soname, package) in [(3, "libheif.so.1", "libheif1"), (4, "libavif.so.15", "libavif15"), (5, "libwebp.so.7", "libwebp7"), (6, "libtiff.so.6", "libtiff6")] {
            if lines[line].contains("unavailable") { print("skipped: \(lines[line])"); continue }
            #expect(lines[line].contains(soname) && lines[line].hasSuffix("(\(package))"), "\(lines[line])")
        }
    }

    /// A newcomer reads `visage detect --help` to learn what it takes: every command that takes images
    /// names each format `visage info --formats` lists (detect's and contours' once said only "JPEG, PNG,
    /// PPM/PGM" while they read HEIC too).
    @Test func everyImageCommandsHelpNamesEveryFormat() throws {
        let list = try CLIRunner.run(["info", "--formats"])
        let formats = list.stdout.split(separator: "\n").map { String($0.prefix(11)).trimmingCharacters(in: .whitespaces) }
        #expect(formats.count == 9)
        for command in ["info", "detect", "contours", "run-model"] {
            let help = try CLIRunner.run([command, "--help"])
            #expect(help.status == 0)
            // The argument's text, unwrapped: from "<images>" under ARGUMENTS to the next blank line.
            let sections = help.stdout.components(separatedBy: "ARGUMENTS:")
            try #require(sections.count == 2, "\(help.stdout)")
            let text = sections[1].components(separatedBy: "\n\n")[0].split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for format in formats {
                #expect(text.contains(format), "visage \(command) --help: \(text)")
            }
        }
    }

    @Test func aMissingLibraryNamesItsPackage() throws {
        let list = try CLIRunner.run(["info", "--formats"], environment: Self.environment(disabling: "heif,webp"))
        #expect(list.status == 0)
        #expect(list.stdout.contains("HEIC/HEIF  unavailable: apt-get install libheif1 (disabled by VISAGE_DISABLE_CODECS)\n"))
        #expect(list.stdout.contains("WebP       unavailable: apt-get install libwebp7 (disabled by VISAGE_DISABLE_CODECS)\n"))

        let detect = try CLIRunner.run(["detect", "\(Self.fixtures)/heic-rgb.heic"], environment: Self.environment(disabling: "heif"))
        #expect(detect.status == 1)
        #expect(detect.stderr.contains("HEIC/HEIF needs libheif1: apt-get install libheif1 (disabled by VISAGE_DISABLE_CODECS)"))

        let json = try CLIRunner.run(["info", "--formats", "--json"], environment: Self.environment(disabling: "avif"))
        let objects = try json.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.count == 9)
        let avif = try #require(objects.first { $0["format"] as? String == "avif" })
        #expect(avif["available"] as? Bool == false && avif["package"] as? String == "libavif15")
        #expect(objects.first { $0["format"] as? String == "bmp" }?["available"] as? Bool == true)
    }

    @Test func infoSaysHowManyFramesAndWhichIsDecoded() throws {
        let files = ["gif-animated.gif", "webp-animated.webp", "heic-two-images.heic", "tiff-two-pages.tiff", "bmp-24.bmp", "webp-exif6.webp"]
        let result = try CLIRunner.run(["info"] + files.map { "\(Self.fixtures)/\($0)" })
        if result.stderr.contains("needs lib") { print("skipped: \(result.stderr)"); return }
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(Self.fixtures)/gif-animated.gif: GIF 64×48, palette 6-bit → rgb8, orientation up (1), 3 frames (the first is decoded)",
            "\(Self.fixtures)/webp-animated.webp: WebP 64×48, animated 8-bit → rgb8, orientation up (1), 3 frames (the first is decoded)",
            "\(Self.fixtures)/heic-two-images.heic: HEIF 64×48, YCbCr 8-bit → rgb8, orientation up (1), 2 images (the primary one is decoded)",
            "\(Self.fixtures)/tiff-two-pages.tiff: TIFF 64×48, RGB 8-bit → rgb8, orientation up (1), 2 pages (the first is decoded)",
            "\(Self.fixtures)/bmp-24.bmp: BMP 64×48, BGR 24-bit → rgb8, orientation up (1)",
            "\(Self.fixtures)/webp-exif6.webp: WebP 64×48, lossless 8-bit → rgb8, orientation right (6), upright 48×64",
        ])
        let json = try CLIRunner.run(["info", "--json", "\(Self.fixtures)/gif-animated.gif"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "gif" && object["frames"] as? Int == 3)
    }

    @Test func foldersIncludeEveryFormat() throws {
        let result = try CLIRunner.run(["info", "--json", Self.fixtures])
        let formats = Set(result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["format"] as? String
        })
        if result.stderr.contains("needs lib") { print("skipped: \(result.stderr)"); return }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(formats == ["heif", "avif", "webp", "tiff", "gif", "bmp"])
    }

    @Test func unsupportedFormatsAreNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("%PDF-1.7\n%\u{e2}\u{e3}".utf8).write(to: folder.appendingPathComponent("scan.jpg"))
        let result = try CLIRunner.run(["detect", "scan.jpg"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("visage: scan.jpg: unsupported image format: PDF; Visage reads JPEG, PNG, HEIC/HEIF, AVIF, WebP, TIFF, GIF, BMP, PPM or PGM"))
    }

    @Test(arguments: ["heic-rgb.heic", "avif-rgb.avif", "webp-lossy.webp", "tiff-jpeg.tiff", "gif-palette.gif", "bmp-8.bmp"])
    func truncatedFilesFailCleanly(_ name: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try Data(contentsOf: CLIRunner.packageRoot.appendingPathComponent("\(Self.fixtures)/\(name)"))
        try data.prefix(data.count / 2).write(to: folder.appendingPathComponent(name))
        let result = try CLIRunner.run(["detect", "--json", name], in: folder)
        if result.stderr.contains("needs lib") { print("skipped: \(result.stderr)"); return }
        #expect(result.status == 1)
        #expect(result.stderr.contains("visage: \(name): truncated ") || result.stderr.contains("visage: \(name): corrupt "), "\(result.stderr)")
    }
}
