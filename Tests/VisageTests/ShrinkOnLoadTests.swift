import Foundation
import Testing
import Visage
import VisageImage

/// Fast detection of a JPEG never makes its full decode. A baseline JPEG the detector needs at 1/4 or 1/8
/// gets the full decode's faces exactly: the detector's input is the full decode's letterbox, from the
/// pixels it reads (``JPEGSparseDecoder``), and with the mesh from the reduced decode (`--shrink-on-load`)
/// its meshes too. Smaller ones decode reduced (libjpeg's scaled IDCT) and report faces in the full
/// picture: boxes within 1 % of the picture's size of a full decode's, keypoints within 1.5 %.
struct ShrinkOnLoadTests {
    static func data(_ name: String) throws -> Data { try Data(contentsOf: DetectorFixtures.url(name)) }

    static func reduced(_ minimum: Int) -> ImageDecodingOptions {
        var options = ImageDecodingOptions()
        options.minimumDimension = minimum
        return options
    }

    /// The halving scales only (1/2, 1/4, 1/8), the smallest whose longer side reaches the minimum.
    @Test func jpegDecodesAtTheSmallestHalvingScaleReachingTheMinimum() throws {
        let data = try Self.data("one-face.jpg")   // 640×480
        let cases: [(minimum: Int, width: Int, height: Int)] = [(256, 320, 240), (320, 320, 240), (321, 640, 480), (80, 80, 60), (1, 80, 60)]
        for (minimum, width, height) in cases {
            let image = try Image(data: data, options: Self.reduced(minimum))
            #expect((image.width, image.height) == (width, height), "minimum \(minimum)")
        }
        // A PNG decodes whole.
        let png = try Image(data: Self.data("two-faces.png"), options: Self.reduced(64))
        #expect(png.size == (try Image(data: Self.data("two-faces.png"))).size)
        #expect(throws: ImageError.self) { try Image(data: data, options: Self.reduced(0)) }
    }

    /// Faces of the reduced decode against the full decode's, in the full upright picture.
    static func expectParity(_ data: Data, faces expected: Int, decodeThreads: Int = 1, exact: Bool = true) throws {
        let detector = FaceDetector(options: .init(performanceMode: .fast))
        let full = try Image(data: data, options: .init(applyOrientation: false))
        let reference = try detector.analyzedFaces(in: full)
        let reduced = try detector.analyzedFaces(decoding: data, features: [], decodeThreads: decodeThreads)
        let size = full.size
        #expect(reduced.width == Int(size.width) && reduced.height == Int(size.height))
        try #require(reduced.faces.count == expected && reference.count == expected)
        if exact {
            #expect(reduced.faces.map(\.face.frame) == reference.map(\.face.frame))
            #expect(reduced.faces.map(\.face.keypoints) == reference.map(\.face.keypoints))
            #expect(reduced.faces.map(\.face.confidence) == reference.map(\.face.confidence))
            let withMesh = try detector.analyzedFaces(in: full, mesh: true)
            let decoded = try detector.analyzedFaces(decoding: data, features: [.mesh], meshFromReducedDecode: true)
            #expect(decoded.faces.map(\.face.frame) == withMesh.map(\.face.frame))
            #expect(decoded.faces.map(\.face.keypoints) == withMesh.map(\.face.keypoints))
            #expect(decoded.faces.map(\.face.confidence) == withMesh.map(\.face.confidence))
            #expect(decoded.faces.map { $0.analysis?.mesh } == withMesh.map { $0.analysis?.mesh })
        }
        for (a, b) in zip(reduced.faces.map(\.face), reference.map(\.face)) {
            let (dx, dy) = (0.01 * size.width, 0.01 * size.height)
            #expect(abs(a.frame.minX - b.frame.minX) <= dx && abs(a.frame.maxX - b.frame.maxX) <= dx)
            #expect(abs(a.frame.minY - b.frame.minY) <= dy && abs(a.frame.maxY - b.frame.maxY) <= dy)
            // Keypoints move a little more (measured up to 1.3 % on the oriented fixture, a 320-pixel reduced
            // decode); the angles they give are noisier still, so neither is held to the boxes' 1 %.
            for (type, point) in a.keypoints {
                let other = try #require(b.keypoints[type])
                #expect(abs(point.x - other.x) <= 1.5 * dx && abs(point.y - other.y) <= 1.5 * dy, "\(type): \(point) vs \(other)")
            }
        }
    }

    @Test func reducedDetectionMatchesTheFullDecode() throws {
        // 640×480 decodes at 320×240: still 2.5× the detector's 128-pixel input.
        try Self.expectParity(try Self.data("one-face.jpg"), faces: 1, exact: false)
    }

    /// The EXIF orientation is honoured: the oriented-6 fixture at twice its size (upright 480×640, shrunk to
    /// 1/2 by libjpeg) and at four times (upright 960×1280: 1/4, the sparse decoder's exact letterbox).
    @Test(arguments: [2, 4]) func reducedDetectionHonoursTheOrientation(factor: Int) throws {
        let original = try Self.data("oriented-6.jpg")
        let stored = try Image(data: original, options: .init(applyOrientation: false))
        let larger = try stored.resized(width: factor * stored.width, height: factor * stored.height, method: .bilinear).jpegData(quality: 95)
        // The original's APP1 (EXIF) segment, spliced in after the new file's SOI.
        let bytes = [UInt8](original)
        let app1 = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xE1 })
        let length = Int(bytes[app1 + 2]) << 8 | Int(bytes[app1 + 3])
        let oriented = larger.prefix(2) + Data(bytes[app1..<(app1 + 2 + length)]) + larger.dropFirst(2)
        #expect(try ImageFileInfo.read(data: oriented).orientation == .right)
        try Self.expectParity(oriented, faces: 1, exact: factor == 4)
    }

    /// A JPEG with restart markers (a marker every MCU row, as phone encoders write them) is decoded in
    /// two bands at once with `decodeThreads: 2`: the reduced picture is bit-identical, so the faces are
    /// the one-thread decode's exactly, and within 1 % of a full decode's.
    @Test func bandedReducedDecodeGivesTheSameFaces() throws {
        let original = try Image(data: Self.data("one-face.jpg"), options: .init(applyOrientation: false))
        let large = try original.resized(width: 2560, height: 1920, method: .bilinear)
        let data = Data(try JPEGCodec.encode(large, quality: 90, restartRows: 1))
        try data.withUnsafeBytes { bytes in
            let markers = try JPEGMarkers(bytes)
            #expect(JPEGBands.splits(bytes, markers: markers, count: 2) != nil, "the bands are used")
        }
        let detector = FaceDetector(options: .init(performanceMode: .fast))
        let one = try detector.analyzedFaces(decoding: data, features: [], decodeThreads: 1)
        let two = try detector.analyzedFaces(decoding: data, features: [], decodeThreads: 2)
        #expect(one.faces.count == 1)
        #expect(one.faces.map(\.face.frame) == two.faces.map(\.face.frame))
        #expect(one.faces.map(\.face.keypoints) == two.faces.map(\.face.keypoints))
        try Self.expectParity(data, faces: 1, decodeThreads: 2)
    }

    /// A 12-megapixel photo with sensor-like noise (quality 92, about 3 MB, as `benchmark-batch.py`'s), which
    /// the detector needs at 1/8: the sparse decoder's letterbox gives the full decode's faces exactly, where
    /// the blocks' DC terms (block means, without the noise a full decode's point samples carry) did not.
    @Test func noisyTwelveMegapixelPhotoMatchesTheFullDecode() throws {
        let source = try Image(data: Self.data("one-face.jpg"), options: .init(applyOrientation: false))
        var pixels = try source.resized(width: 4000, height: 3000, method: .bilinear).packedPixels
        // Uniform noise of −7…+8 levels per channel (σ ≈ 4.6), from a fixed 64-bit LCG.
        var state: UInt64 = 15
        pixels.withUnsafeMutableBufferPointer { bytes in
            for index in bytes.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes[index] = UInt8(clamping: Int(bytes[index]) + Int(state >> 60) - 7)
            }
        }
        let photo = try Image(width: 4000, height: 3000, pixelFormat: source.pixelFormat, pixels: pixels)
        let data = Data(try JPEGCodec.encode(photo, quality: 92))
        #expect(try Image(data: data, options: Self.reduced(FaceDetector.shrinkOnLoadMinimum)).size == CGSize(width: 500, height: 375))
        try Self.expectParity(data, faces: 1)
    }

    /// The mesh needs full-resolution pixels: faces reported in another size than the image's refuse it.
    @Test func reportingAnotherSizeRefusesTheMesh() throws {
        let detector = FaceDetector(options: .init(performanceMode: .fast))
        let data = try Self.data("two-faces.png")
        #expect(throws: FaceDetectionError.self) {
            try detector.analyzedFaces(in: try Image(data: data), mesh: true, uprightSize: (10, 10))
        }
    }
}
