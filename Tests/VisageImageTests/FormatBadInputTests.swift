import Foundation
import Testing
import VisageImage

/// Untrusted HEIC, AVIF, WebP, TIFF, GIF and BMP data: a typed error, quickly, with nothing allocated
/// for pixels a header merely claims.
struct FormatBadInputTests {
    /// One still fixture per format.
    static let stills = ["heic-rgb.heic", "avif-rgb.avif", "webp-lossy.webp", "webp-lossless.webp", "tiff-lzw.tiff", "gif-palette.gif", "bmp-24.bmp"]

    static func format(of name: String) -> ImageFileFormat {
        FormatFixtures.entries.first { $0.file == name }!.format
    }

    @Test(arguments: stills)
    func truncatedAtManyOffsets(_ name: String) throws {
        if let reason = FormatFixtures.unavailable(Self.format(of: name)) { print(reason); return }
        let data = try Fixtures.data("formats/" + name)
        let format = Self.format(of: name)
        // Pillow's TIFFs put the directory after the pixels: a cut inside its later tag values leaves the
        // image whole. Every other still needs all of its bytes (lossy WebP and AVIF stop at the last
        // byte they need; a BMP's rows fill the file).
        let essential = format == .tiff ? Int(data[4]) | Int(data[5]) << 8 | Int(data[6]) << 16 | Int(data[7]) << 24 : data.count
        for length in stride(from: 1, to: data.count, by: max(1, data.count / 97)) {
            do {
                let image = try Image(data: data.prefix(length))
                #expect(image.width > 0 && image.height > 0)
                #expect(length >= essential, "\(name) cut at \(length) of \(data.count) decodes")
            } catch {
                if length < 12, case .unsupportedFormat = error { continue }  // shorter than the signature
                if length < 12, case .formatNotSupported = error { continue }  // "RIFF" alone: some RIFF file
                switch error {
                case .truncated(let f, _), .corrupt(let f, _): #expect(f == format, "\(name) cut at \(length): \(error)")
                default: Issue.record("\(name) cut at \(length): \(error)")
                }
            }
        }
        // The header itself, cut short, is truncated data.
        let error = try #require(throws: ImageError.self) { try Image(data: data.prefix(20)) }
        guard case .truncated(format, _) = error else { Issue.record("\(name) cut at 20: \(error)"); return }
    }

    @Test func signaturesAlone() throws {
        let cases: [(String, [UInt8], ImageFileFormat)] = [
            ("RIFF\0\0\0\0WEBP", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8), .webp),
            ("GIF89a", Array("GIF89a".utf8), .gif),
            ("BM", Array("BM".utf8), .bmp),
            ("II*\0", [0x49, 0x49, 0x2A, 0], .tiff),
            ("ftypheic", [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heif),
            ("ftypavif", [0, 0, 0, 16] + Array("ftypavif".utf8) + [0, 0, 0, 0], .avif),
        ]
        for (label, bytes, format) in cases {
            if let reason = FormatFixtures.unavailable(format) { print(reason); continue }
            let error = try #require(throws: ImageError.self, "\(label)") { try Image(data: Data(bytes)) }
            switch error {
            case .truncated(format, _), .corrupt(format, _): break
            default: Issue.record("\(label): \(error)")
            }
            #expect(throws: ImageError.self, "\(label)") { try ImageFileInfo.read(data: Data(bytes)) }
        }
    }

    /// Headers claiming more pixels than the limit: refused with the claimed size, before any pixel
    /// allocation (the libraries never see a HEIF or AVIF whose `ispe` is too large).
    @Test(arguments: [
        ("heic-rgb.heic", 100_000, 90_000), ("avif-rgb.avif", 100_000, 90_000), ("webp-lossless.webp", 16_384, 16_384),
        ("webp-animated.webp", 16_000_000, 9_000), ("tiff-rgb.tiff", 100_000, 90_000), ("gif-palette.gif", 65_535, 65_535),
        ("bmp-24.bmp", 100_000, 90_000),
    ])
    func hugeDeclaredSize(_ name: String, _ width: Int, _ height: Int) throws {
        let format = Self.format(of: name)
        if let reason = FormatFixtures.unavailable(format) { print(reason); return }
        let data = try HeaderSurgery.withSize(Fixtures.data("formats/" + name), format: format, width: width, height: height)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            let error = try #require(throws: ImageError.self) { try Image(data: data) }
            #expect(error == .imageTooLarge(width: width, height: height, limit: ImageDecodingOptions.defaultPixelLimit), "\(name)")
        }
        #expect(elapsed < .seconds(1))
    }

    @Test func corruptStructures() throws {
        // GIF: an LZW minimum code size of 12, and a block introducer that is none.
        var gif = try [UInt8](Fixtures.data("formats/gif-palette.gif"))
        let lzw = try #require(GIFOffsets.lzwMinimumCodeSize(gif))
        gif[lzw] = 12
        #expect(throws: ImageError.corrupt(.gif, reason: "LZW minimum code size 12 is outside 1…8")) { try Image(data: Data(gif)) }
        gif = try [UInt8](Fixtures.data("formats/gif-palette.gif"))
        gif[13 + 192] = 0x99
        #expect(throws: ImageError.corrupt(.gif, reason: "block introducer 0x99 at byte 205 is not 0x21, 0x2C or 0x3B")) { try Image(data: Data(gif)) }

        // BMP: an unknown header size, a bit count no BMP has, RLE compression.
        var bmp = try [UInt8](Fixtures.data("formats/bmp-24.bmp"))
        bmp[14] = 99
        #expect(throws: ImageError.corrupt(.bmp, reason: "bitmap header of 99 bytes; 12, 40, 52, 56, 64, 108 or 124 are defined")) { try Image(data: Data(bmp)) }
        bmp = try [UInt8](Fixtures.data("formats/bmp-24.bmp"))
        bmp[28] = 7
        #expect(throws: ImageError.corrupt(.bmp, reason: "7 bits per pixel; 1, 4, 8, 16, 24 or 32 are defined")) { try Image(data: Data(bmp)) }
        bmp = try [UInt8](Fixtures.data("formats/bmp-8.bmp"))
        bmp[30] = 1
        #expect(throws: ImageError.formatNotSupported(name: "BMP with RLE8 compression")) { try Image(data: Data(bmp)) }

        if FormatFixtures.unavailable(.webp) == nil {
            // WebP: the VP8L chunk's size beyond the file, and its bitstream signature broken.
            var webp = try [UInt8](Fixtures.data("formats/webp-lossless.webp"))
            webp[16] = 0xFF; webp[17] = 0xFF; webp[18] = 0xFF
            let error = try #require(throws: ImageError.self) { try Image(data: Data(webp)) }
            guard case .corrupt(.webp, _) = error else { Issue.record("\(error)"); return }
            webp = try [UInt8](Fixtures.data("formats/webp-lossless.webp"))
            webp[20] = 0x00
            #expect(throws: ImageError.self) { try Image(data: Data(webp)) }
        }
        if FormatFixtures.unavailable(.heif) == nil {
            // HEIF: an item-property association table that claims a million entries.
            var heic = try [UInt8](Fixtures.data("formats/heic-rgb.heic"))
            let ipma = try #require(HeaderSurgery.boxOffset(heic, "ipma"))
            heic[ipma + 12] = 0x00; heic[ipma + 13] = 0x0F; heic[ipma + 14] = 0x42; heic[ipma + 15] = 0x40
            #expect(throws: ImageError.corrupt(.heif, reason: "'ipma' lists more entries than it holds")) { try Image(data: Data(heic)) }
            // The coded picture's bytes (mdat) zeroed: libde265 or libheif must refuse or decode, never crash.
            heic = try [UInt8](Fixtures.data("formats/heic-rgb.heic"))
            let mdat = try #require(HeaderSurgery.boxOffset(heic, "mdat"))
            for at in (mdat + 16)..<min(heic.count, mdat + 200) { heic[at] = 0 }
            do { _ = try Image(data: Data(heic)) } catch { #expect(!error.description.isEmpty) }
        }
        if FormatFixtures.unavailable(.tiff) == nil {
            // TIFF: the first directory's offset past the end.
            var tiff = try [UInt8](Fixtures.data("formats/tiff-rgb.tiff"))
            tiff[4] = 0xFF; tiff[5] = 0xFF; tiff[6] = 0xFF; tiff[7] = 0x00
            let error = try #require(throws: ImageError.self) { try Image(data: Data(tiff)) }
            switch error {
            case .truncated(.tiff, _), .corrupt(.tiff, _): break
            default: Issue.record("\(error)")
            }
        }
    }

    /// A frame far larger than its 1×1 screen: refused by its own size, not decoded pixel by pixel.
    @Test func gifFrameLargerThanItsScreen() throws {
        var gif = try [UInt8](Fixtures.data("formats/gif-palette.gif"))
        let descriptor = try #require(GIFOffsets.imageDescriptor(gif))
        gif[6] = 1; gif[7] = 0; gif[8] = 1; gif[9] = 0
        for at in (descriptor + 5)...(descriptor + 8) { gif[at] = 0xFF }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: ImageError.imageTooLarge(width: 65_535, height: 65_535, limit: 100_000_000)) { try Image(data: Data(gif)) }
        }
        #expect(elapsed < .seconds(1))
        // Within the limit, the frame is clipped to the screen.
        let clipped = try Image(data: Data(gif), options: .init(pixelLimit: .max))
        #expect((clipped.width, clipped.height) == (1, 1))
    }

    /// A TIFF strip claiming 2 GB: libtiff must neither allocate it nor read past the data.
    @Test func tiffStripClaimingGigabytes() throws {
        if let reason = FormatFixtures.unavailable(.tiff) { print(reason); return }
        var tiff = try [UInt8](Fixtures.data("formats/tiff-rgb.tiff"))
        let ifd = Int(tiff[4]) | Int(tiff[5]) << 8 | Int(tiff[6]) << 16 | Int(tiff[7]) << 24
        let count = Int(tiff[ifd]) | Int(tiff[ifd + 1]) << 8
        let entry = try #require((0..<count).map { ifd + 2 + 12 * $0 }.first { Int(tiff[$0]) | Int(tiff[$0 + 1]) << 8 == 279 })
        tiff[entry + 2] = 4; tiff[entry + 3] = 0  // LONG
        tiff[entry + 8] = 0xF0; tiff[entry + 9] = 0xFF; tiff[entry + 10] = 0xFF; tiff[entry + 11] = 0x7F
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            do {
                let image = try Image(data: Data(tiff))
                #expect((image.width, image.height) == (64, 48))
            } catch let error as ImageError {
                switch error {
                case .truncated(.tiff, _), .corrupt(.tiff, _): break
                default: Issue.record("\(error)")
                }
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(elapsed < .seconds(1))
    }

    @Test func recognisedFormatsAreNamed() throws {
        let cases: [([UInt8], String)] = [
            (Array("%PDF-1.7\n".utf8), "PDF"),
            ([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A], "JPEG 2000"),
            ([0xFF, 0x0A, 0xFA, 0x7F], "JPEG XL"),
            (Array("8BPS\0\u{1}".utf8), "Photoshop (PSD)"),
            (Array("qoif\0\0\0\u{1}".utf8), "QOI"),
            ([0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("isommp42".utf8), "MP4/QuickTime video"),
            (Array("P4\n1 1\n\0".utf8), "PBM (1-bit Netpbm)"),
        ]
        for (bytes, name) in cases {
            let error = try #require(throws: ImageError.self) { try Image(data: Data(bytes)) }
            #expect(error == .formatNotSupported(name: name))
        }
        #expect(ImageError.formatNotSupported(name: "PDF").description
            == "unsupported image format: PDF; Visage reads JPEG, PNG, HEIC/HEIF, AVIF, WebP, TIFF, GIF, BMP, PPM or PGM")
    }

    @Test func missingLibraryNamesThePackage() {
        let error = ImageError.codecUnavailable(.heif, library: "libheif.so.1", package: "libheif1", reason: "cannot load libheif.so.1")
        #expect(error.description == "HEIC/HEIF needs libheif1: apt-get install libheif1 (cannot load libheif.so.1)")
        for availability in ImageCodecAvailability.all {
            #expect(availability.isAvailable == (availability.problem == nil))
            if availability.package != nil { #expect(availability.decoder.hasPrefix("lib") && availability.decoder.contains(".so.")) }
        }
    }
}

/// Rewrites the declared size in a fixture's header, leaving everything else as it was.
enum HeaderSurgery {
    static func withSize(_ data: Data, format: ImageFileFormat, width: Int, height: Int) throws -> Data {
        var bytes = [UInt8](data)
        func put(_ value: Int, at offset: Int, count: Int, bigEndian: Bool) {
            for index in 0..<count {
                let shift = 8 * (bigEndian ? count - 1 - index : index)
                bytes[offset + index] = UInt8(truncatingIfNeeded: value >> shift)
            }
        }
        switch format {
        case .heif, .avif:
            // Every ispe box (color and alpha items alike).
            var at = 0
            while let found = boxOffset(bytes, "ispe", from: at) {
                put(width, at: found + 12, count: 4, bigEndian: true)
                put(height, at: found + 16, count: 4, bigEndian: true)
                at = found + 8
            }
        case .webp:
            if let vp8x = chunkOffset(bytes, "VP8X") {
                put(width - 1, at: vp8x + 12, count: 3, bigEndian: false)
                put(height - 1, at: vp8x + 15, count: 3, bigEndian: false)
            } else if let vp8l = chunkOffset(bytes, "VP8L") {
                // 14 bits each of width − 1 and height − 1 after the signature byte; alpha and version kept.
                let at = vp8l + 9
                let old = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
                let value = (old & ~0x0FFF_FFFF) | (width - 1) | (height - 1) << 14
                put(value, at: at, count: 4, bigEndian: false)
            }
        case .tiff:
            // Little-endian (Pillow): the first IFD's ImageWidth and ImageLength, written as LONG.
            let ifd = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
            let count = Int(bytes[ifd]) | Int(bytes[ifd + 1]) << 8
            for entry in 0..<count {
                let at = ifd + 2 + 12 * entry
                let tag = Int(bytes[at]) | Int(bytes[at + 1]) << 8
                guard tag == 256 || tag == 257 else { continue }
                put(4, at: at + 2, count: 2, bigEndian: false)
                put(tag == 256 ? width : height, at: at + 8, count: 4, bigEndian: false)
            }
        case .gif:
            put(width, at: 6, count: 2, bigEndian: false)
            put(height, at: 8, count: 2, bigEndian: false)
        case .bmp:
            put(width, at: 18, count: 4, bigEndian: false)
            put(height, at: 22, count: 4, bigEndian: false)
        default:
            break
        }
        return Data(bytes)
    }

    /// The offset of the first box of `type` (its size field), found by its four-character code.
    static func boxOffset(_ bytes: [UInt8], _ type: String, from start: Int = 0) -> Int? {
        let code = Array(type.utf8)
        guard bytes.count >= 8 else { return nil }
        for at in max(4, start + 4)..<(bytes.count - 4) where bytes[at..<(at + 4)].elementsEqual(code) { return at - 4 }
        return nil
    }

    static func chunkOffset(_ bytes: [UInt8], _ fourCC: String) -> Int? {
        let code = Array(fourCC.utf8)
        for at in stride(from: 12, to: bytes.count - 8, by: 1) where bytes[at..<(at + 4)].elementsEqual(code) { return at }
        return nil
    }
}

enum GIFOffsets {
    /// The LZW minimum code size byte of the first image.
    static func lzwMinimumCodeSize(_ bytes: [UInt8]) -> Int? {
        guard let at = imageDescriptor(bytes) else { return nil }
        let local = bytes[at + 9] & 0x80 != 0 ? 3 << ((bytes[at + 9] & 7) + 1) : 0
        return at + 10 + local
    }

    /// The first image descriptor (its 0x2C), after the extensions before it.
    static func imageDescriptor(_ bytes: [UInt8]) -> Int? {
        let global = bytes[10] & 0x80 != 0 ? 3 << ((bytes[10] & 7) + 1) : 0
        var at = 13 + global
        while at < bytes.count {
            switch bytes[at] {
            case 0x2C:
                return at
            case 0x21:
                at += 2
                while bytes[at] != 0 { at += Int(bytes[at]) + 1 }
                at += 1
            default:
                return nil
            }
        }
        return nil
    }
}
