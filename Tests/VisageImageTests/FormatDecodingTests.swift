import Foundation
import Testing
import VisageGeometry
import VisageImage

/// Every format against Pillow's decode of the same file (Scripts/make-format-fixtures.py).
struct FormatDecodingTests {
    /// The largest per-channel difference measured against Pillow, per format (lossless: exact).
    /// HEIC: pillow-heif bundles a newer libheif than the system's 1.15, whose YCbCr → RGB rounds
    /// differently (measured 1). AVIF and lossy WebP: the same libraries' decoders on both sides
    /// (measured 0). TIFF: libtiff's RGBA interface premultiplies alpha, undone here (measured 1 with
    /// alpha ≥ 128). BMP: 5-6-5 bit fields scale to 8 bits by rounding, Pillow otherwise (measured 1).
    static let tolerance: [ImageFileFormat: Int] = [.heif: 1, .avif: 0, .webp: 0, .tiff: 1, .gif: 0, .bmp: 1]
    /// 10-bit HEVC rounds twice (YCbCr → RGB, then 10 → 8 bits), each library its own way (measured 2).
    static let fileTolerance = ["heic-10bit.heic": 2]

    @Test(arguments: FormatFixtures.entries)
    func matchesPillow(_ entry: FormatFixtures.Entry) throws {
        if let reason = FormatFixtures.unavailable(entry.format) { print(reason); return }
        let image = try Image(contentsOf: entry.url, options: .init(applyOrientation: entry.upright))
        let reference = try FormatFixtures.reference(entry)
        let converted = image.pixelFormat == reference.pixelFormat ? image : image.converted(to: reference.pixelFormat)
        let difference = try #require(maximumDifference(converted, reference), "\(image.width)×\(image.height) \(image.pixelFormat) vs \(reference.width)×\(reference.height) \(reference.pixelFormat)")
        print("\(entry.file): largest difference from Pillow \(difference)")
        #expect(difference <= Self.fileTolerance[entry.file] ?? Self.tolerance[entry.format]!, "\(entry.file)")
    }

    @Test(arguments: FormatFixtures.entries)
    func infoReadsTheHeader(_ entry: FormatFixtures.Entry) throws {
        if let reason = FormatFixtures.unavailable(entry.format) { print(reason); return }
        let info = try ImageFileInfo.read(contentsOf: entry.url)
        #expect(info.format == entry.format)
        #expect(info.frameCount == entry.frames)
        let upright = info.uprightSize
        #expect(entry.upright ? (upright.width, upright.height) == (entry.width, entry.height) : (info.width, info.height) == (entry.width, entry.height))
        #expect(info.orientation.exifValue == entry.orientation)
        let image = try Image(contentsOf: entry.url, options: .init(applyOrientation: false))
        #expect((image.width, image.height) == (info.width, info.height))
        #expect(image.orientation == info.orientation)
    }
}

/// Orientation from the containers: HEIF's irot/imir read by Visage against libheif's own transformation.
struct FormatOrientationTests {
    @Test(arguments: FormatFixtures.entries.filter { $0.format == .heif })
    func heifTransformationsMatchLibheif(_ entry: FormatFixtures.Entry) throws {
        if let reason = FormatFixtures.unavailable(.heif) { print(reason); return }
        let data = try entry.data
        let upright = try Image(data: data)
        let libheif = try data.withUnsafeBytes { bytes in
            try HEIFCodec.decodeTransformed(bytes, rgba: upright.pixelFormat == .rgba8, pixelLimit: 1 << 20)
        }
        #expect((upright.width, upright.height) == (libheif.width, libheif.height))
        #expect(maximumDifference(upright, libheif) == 0)
    }

    @Test func quarterTurnsAndMirrorsMapToEXIF() {
        // irot counts counter-clockwise quarter turns; imir 0 exchanges top and bottom, 1 left and right.
        let expected: [(Int, Int?, ImageOrientation)] = [
            (0, nil, .up), (1, nil, .left), (2, nil, .down), (3, nil, .right),
            (0, 0, .downMirrored), (0, 1, .upMirrored), (1, 0, .leftMirrored), (1, 1, .rightMirrored),
            (2, 0, .upMirrored), (2, 1, .downMirrored), (3, 0, .rightMirrored), (3, 1, .leftMirrored),
        ]
        for (turns, mirror, orientation) in expected {
            #expect(ImageOrientation(quarterTurnsCounterClockwise: turns, mirror: mirror) == orientation, "irot \(turns) imir \(String(describing: mirror))")
        }
    }
}

/// ImageDecodingOptions apply to every new format as to JPEG and PNG.
struct FormatOptionsTests {
    static let stills = FormatFixtures.entries.filter { !$0.upright && $0.frames == 1 }

    @Test(arguments: stills)
    func pixelLimitAndMaximumDimension(_ entry: FormatFixtures.Entry) throws {
        if let reason = FormatFixtures.unavailable(entry.format) { print(reason); return }
        // HEIF is limited by what libheif decodes: the coded picture (x265 pads 48 rows to 64), before `clap`.
        let (width, height) = entry.format == .heif ? (64, 64) : (entry.width, entry.height)
        #expect(throws: ImageError.imageTooLarge(width: width, height: height, limit: width * height - 1)) {
            try Image(contentsOf: entry.url, options: .init(pixelLimit: width * height - 1))
        }
        #expect(try Image(contentsOf: entry.url, options: .init(applyOrientation: false, pixelLimit: width * height)).width == entry.width)
        let small = try Image(contentsOf: entry.url, options: .init(applyOrientation: false, maximumDimension: 32))
        #expect((small.width, small.height) == (32, 24))
        #expect(small.orientation.exifValue == entry.orientation)
    }

    @Test func orientationIsAppliedByDefault() throws {
        for name in ["webp-exif6.webp", "tiff-orientation6.tiff"] {
            let entry = try #require(FormatFixtures.entries.first { $0.file == name })
            if let reason = FormatFixtures.unavailable(entry.format) { print(reason); continue }
            let upright = try Image(contentsOf: entry.url)
            let stored = try Image(contentsOf: entry.url, options: .init(applyOrientation: false))
            #expect((upright.width, upright.height, upright.orientation) == (48, 64, .up))
            #expect((stored.width, stored.height, stored.orientation) == (64, 48, .right))
            #expect(maximumDifference(upright, stored.applyingOrientation()) == 0)
        }
    }
}
