import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import VisageImage

/// Untrusted input gives a typed error with a readable message, quickly and without large allocations.
struct BadInputTests {
    @Test func emptyFile() throws {
        #expect(throws: ImageError.empty) { try Image(contentsOf: Fixtures.url("bad-empty.png")) }
        #expect(throws: ImageError.empty) { try Image(data: Data()) }
        #expect(ImageError.empty.description == "the image data is empty (0 bytes)")
    }

    @Test func truncatedJPEG() throws {
        let error = try #require(throws: ImageError.self) { try Image(contentsOf: Fixtures.url("bad-truncated.jpg")) }
        guard case .truncated(.jpeg, _) = error else { Issue.record("expected truncated JPEG, got \(error)"); return }
        #expect(error.description.hasPrefix("truncated JPEG data: "))
    }

    @Test func truncatedPNG() throws {
        let error = try #require(throws: ImageError.self) { try Image(contentsOf: Fixtures.url("bad-truncated.png")) }
        guard case .truncated(.png, _) = error else { Issue.record("expected truncated PNG, got \(error.description)"); return }
    }

    @Test func truncatedHeadersAreTruncated() throws {
        let jpeg = try Fixtures.data("jpeg-baseline.jpg")
        #expect(throws: ImageError.truncated(.jpeg, reason: "segment 0xFFE0 of 16 bytes at byte 2 runs past the end")) {
            try Image(data: jpeg.prefix(10))
        }
        let png = try Fixtures.data("png-rgb8.png")
        #expect(throws: ImageError.truncated(.png, reason: "20 bytes cannot hold the signature and IHDR")) {
            try Image(data: png.prefix(20))
        }
        #expect(throws: ImageError.truncated(.pnm, reason: "only 3 of 6 samples")) {
            try Image(data: Data("P2 3 2 255 1 2 3".utf8))
        }
    }

    @Test func contentDecidesNotTheExtension() throws {
        let mislabelled = try Image(contentsOf: Fixtures.url("bad-png-named.jpg"))
        #expect(mislabelled.packedPixels == (try Image(contentsOf: Fixtures.url("png-rgb8.png"))).packedPixels)
        let error = try #require(throws: ImageError.self) { try Image(contentsOf: Fixtures.url("bad-text.png")) }
        #expect(error == .unsupportedFormat(signature: "54 68 69 73 20 69 73 20"))
        #expect(error.description == "unsupported image format: the data starts with 54 68 69 73 20 69 73 20, which is not JPEG, PNG, HEIC/HEIF, AVIF, WebP, TIFF, GIF, BMP, PPM or PGM")
    }

    @Test("A header claiming a huge size fails before allocating", arguments: ["bad-huge-header.png", "bad-huge-header.jpg"])
    func hugeHeader(_ name: String) throws {
        let side = name.hasSuffix(".png") ? 100_000 : 65_500
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: ImageError.imageTooLarge(width: side, height: side, limit: 100_000_000)) {
                try Image(contentsOf: Fixtures.url(name))
            }
        }
        #expect(elapsed < .seconds(1))
        // The header probe reads the claim without judging it.
        #expect(try ImageFileInfo.read(contentsOf: Fixtures.url(name)).width == side)
    }

    @Test func decompressionBomb() throws {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: ImageError.imageTooLarge(width: 30_000, height: 30_000, limit: 100_000_000)) {
                try Image(contentsOf: Fixtures.url("bad-bomb.png"))
            }
        }
        #expect(elapsed < .seconds(1))
        #expect(ImageError.imageTooLarge(width: 30_000, height: 30_000, limit: 100_000_000).description
            == "image of 30000×30000 pixels exceeds the limit of 100000000 pixels")
    }

    @Test func directoryIsNotAFile() throws {
        let directory = Fixtures.url("")
        let error = try #require(throws: ImageError.self) { try Image(contentsOf: directory) }
        #expect(error == .notAFile(path: directory.path))
        #expect(throws: ImageError.notAFile(path: directory.path)) { try ImageFileInfo.read(contentsOf: directory) }
    }

    @Test func fifoIsNotAFileAndDoesNotBlock() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("visage-fifo-\(UUID().uuidString)").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(throws: ImageError.notAFile(path: path)) { try Image(contentsOf: URL(fileURLWithPath: path)) }
    }

    @Test func largeFilesAreJudgedByTheirFirstBytes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("visage-large-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        // A sparse 4 GiB text file: refused from its signature, without reading it.
        try Data("not an image".utf8).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 4 << 30)
        try handle.close()
        #expect(throws: ImageError.unsupportedFormat(signature: "6E 6F 74 20 61 6E 20 69")) { try Image(contentsOf: url) }
        // A real signature on a file beyond any image within the pixel limit: refused before reading on.
        try Fixtures.data("png-rgb8.png").write(to: url)
        let grown = try FileHandle(forWritingTo: url)
        try grown.truncate(atOffset: 100 << 20)
        try grown.close()
        #expect(throws: ImageError.unreadable(path: url.path, reason: "104857600 bytes exceed the 67108872-byte limit for image files")) {
            try Image(contentsOf: url, options: .init(pixelLimit: 1))
        }
    }

    @Test func missingFileIsUnreadable() throws {
        let missing = Fixtures.url("no-such-file.png")
        #expect(throws: ImageError.unreadable(path: missing.path, reason: "No such file or directory")) {
            try Image(contentsOf: missing)
        }
    }

    @Test("A custom pixel limit applies to every format", arguments: ["png-rgb8.png", "jpeg-baseline.jpg", "pnm-p6.ppm"])
    func customPixelLimit(_ name: String) throws {
        #expect(throws: ImageError.imageTooLarge(width: 37, height: 23, limit: 850)) {
            try Image(contentsOf: Fixtures.url(name), options: .init(pixelLimit: 850))
        }
        #expect(try Image(contentsOf: Fixtures.url(name), options: .init(pixelLimit: 851)).width == 37)
    }

    /// With the limit lifted, a PNM header may claim more samples (or sample bytes) than an Int counts.
    @Test("A sample count beyond Int is truncated data, not an overflow", arguments: ["P6 2147483648 2147483648 255\n", "P5 2147483648 2147483648 65535\n", "P3 2147483648 2147483648 255\n0"])
    func pnmSampleCountOverflow(_ header: String) throws {
        let error = try #require(throws: ImageError.self) {
            try Image(data: Data(header.utf8), options: .init(pixelLimit: .max))
        }
        guard case .truncated(.pnm, _) = error else { Issue.record("expected truncated PNM, got \(error)"); return }
    }

    @Test func corruptDataIsCorrupt() throws {
        var png = try [UInt8](Fixtures.data("png-rgb8.png"))
        png[40] ^= 0xFF  // inside IDAT: the CRC no longer matches
        let error = try #require(throws: ImageError.self) { try Image(data: Data(png)) }
        guard case .corrupt(.png, _) = error else { Issue.record("expected corrupt PNG, got \(error)"); return }
        #expect(throws: ImageError.corrupt(.pnm, reason: "maxval 0 is outside 1…65535")) { try Image(data: Data("P5 1 1 0\n\0".utf8)) }
        #expect(throws: ImageError.self) { try Image(data: Data([0xFF, 0xD8, 0xFF, 0xD9, 0, 0])) }
    }

    @Test func invalidMaximumDimension() throws {
        #expect(throws: ImageError.invalidParameter(name: "maximumDimension", value: "0", rule: "must be at least 1")) {
            try Image(contentsOf: Fixtures.url("png-rgb8.png"), options: .init(maximumDimension: 0))
        }
    }
}
