import Foundation
import Testing
import VisageImage

/// The sparse decoder's pixels (``JPEGSparseDecoder``) against libjpeg's full decode of the same files
/// (`JPEGCodec.decode(_:options:dcOnly: false)`): jpeg-dc's fixtures (203×157, quality 90, with and
/// without restart markers) and jpeg-sparse's (Scripts/make-jpeg-sparse-fixtures.py: odd sizes, quality
/// 50-95, Pillow and cjpeg, restart markers in blocks and in rows).
struct JPEGSparseDecoderTests {
    static let fixtures = [
        "jpeg-dc/420", "jpeg-dc/420-restart", "jpeg-dc/422", "jpeg-dc/422-restart", "jpeg-dc/444", "jpeg-dc/444-restart",
        "jpeg-dc/gray", "jpeg-dc/gray-restart", "jpeg-sparse/420-q50", "jpeg-sparse/422-q75-restart", "jpeg-sparse/444-q95",
        "jpeg-sparse/gray-q60-restart", "jpeg-sparse/420-tiny", "jpeg-sparse/420-cjpeg-restart-rows",
        "jpeg-sparse/422-cjpeg-restart-blocks",
    ]

    static func fullDecode(_ data: Data) throws -> Image {
        try data.withUnsafeBytes { bytes throws(ImageError) in
            try JPEGCodec.decode(bytes, options: ImageDecodingOptions(applyOrientation: false), dcOnly: false)
        }
    }

    static func sparse(_ data: Data, rows: [Int], columns: [Int]) -> SparsePixels? {
        data.withUnsafeBytes { JPEGSparseDecoder.pixels($0, rows: rows, columns: columns) }
    }

    @Test(arguments: fixtures)
    func everyPixelIsLibjpegs(name: String) throws {
        let data = try Fixtures.data("\(name).jpg")
        let reference = try Self.fullDecode(data)
        let (rows, columns) = (Array(0 ..< reference.height), Array(0 ..< reference.width))
        let decoded = try #require(Self.sparse(data, rows: rows, columns: columns))
        #expect(decoded.channels == reference.pixelFormat.bytesPerPixel)
        #expect(decoded.samples == reference.packedPixels, "\(name)")
    }

    /// Scattered rows and columns (single ones, pairs, the edges): the blocks between are skipped, and the
    /// chroma neighbours smoothing reads come from blocks decoded for them alone.
    @Test(arguments: fixtures)
    func scatteredPixelsAreLibjpegs(name: String) throws {
        let data = try Fixtures.data("\(name).jpg")
        let reference = try Self.fullDecode(data)
        var generator = SeededGenerator(state: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        for _ in 0 ..< 6 {
            func pick(_ limit: Int) -> [Int] {
                var picked: Set<Int> = [0, limit - 1]
                for _ in 0 ..< max(1, limit / 9) {
                    let at = Int.random(in: 0 ..< limit, using: &generator)
                    picked.insert(at)
                    if Bool.random(using: &generator) { picked.insert(min(at + 1, limit - 1)) }
                }
                return picked.sorted()
            }
            let (rows, columns) = (pick(reference.height), pick(reference.width))
            let decoded = try #require(Self.sparse(data, rows: rows, columns: columns))
            #expect(decoded.samples == SparsePixels(sampling: reference, rows: rows, columns: columns).samples, "\(name) rows \(rows) columns \(columns)")
        }
    }

    /// What it does not read, it leaves to libjpeg (nil), and it never accepts rows or columns outside.
    @Test func leavesOtherFilesAndBadRequestsAlone() throws {
        #expect(Self.sparse(try Fixtures.data("jpeg-dc/progressive.jpg"), rows: [0], columns: [0]) == nil)
        #expect(Self.sparse(try Fixtures.data("jpeg-cmyk.jpg"), rows: [0], columns: [0]) == nil)
        let data = try Fixtures.data("jpeg-dc/420.jpg")
        #expect(Self.sparse(data, rows: [157], columns: [0]) == nil)
        #expect(Self.sparse(data, rows: [3, 2], columns: [0]) == nil)
        #expect(Self.sparse(data, rows: [], columns: [0]) == nil)
        // Cut short, or a byte of its entropy-coded data changed: nil or libjpeg's pixels, never a crash.
        for cut in stride(from: 700, to: data.count, by: 997) {
            #expect(Self.sparse(data.prefix(cut), rows: [0, 100], columns: [0, 200]) == nil)
        }
    }

    /// A three-component file libjpeg takes for RGB (no JFIF marker, and an Adobe marker with transform 0,
    /// as `cjpeg -rgb` writes, or else the component IDs 'R', 'G', 'B') is output by libjpeg without colour
    /// conversion: it is left to libjpeg (nil), where it was read as YCbCr, so fast detection saw false colours
    /// (a 1024×1024 `cjpeg -rgb` copy of astronaut.png: no face, where the full decode finds it). What libjpeg
    /// takes for YCbCr is still read, to its pixels.
    @Test func rgbFilesAreLeftToLibjpeg() throws {
        let original = [UInt8](try Fixtures.data("jpeg-dc/444.jpg"))
        #expect(original[2 ..< 4] == [0xFF, 0xE0] && original[6 ..< 11] == [0x4A, 0x46, 0x49, 0x46, 0])
        let withoutJFIF = [0xFF, 0xD8] + original[(4 + (Int(original[4]) << 8 | Int(original[5])))...]
        func adobe(_ transform: UInt8) -> [UInt8] { [0xFF, 0xEE, 0, 14, 0x41, 0x64, 0x6F, 0x62, 0x65, 0, 100, 0, 0, 0, 0, transform] }
        func inserting(_ segment: [UInt8], into bytes: [UInt8]) -> [UInt8] { Array(bytes[..<2]) + segment + bytes[2...] }
        func withIDs(_ ids: [UInt8], _ bytes: [UInt8]) throws -> [UInt8] {
            var changed = bytes
            let frame = try #require((0 ..< bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
            let scan = try #require((0 ..< bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
            for (index, id) in ids.enumerated() {
                changed[frame + 10 + 3 * index] = id
                changed[scan + 5 + 2 * index] = id
            }
            return changed
        }
        let rgb: [(String, [UInt8])] = [
            ("Adobe transform 0", inserting(adobe(0), into: withoutJFIF)),
            ("component IDs R, G, B", try withIDs([82, 71, 66], withoutJFIF)),
        ]
        let ycbcr: [(String, [UInt8])] = [
            ("as written (JFIF)", original),
            ("JFIF and Adobe transform 0", inserting(adobe(0), into: original)),
            ("Adobe transform 1", inserting(adobe(1), into: withoutJFIF)),
            ("component IDs 1, 2, 3 without markers", withoutJFIF),
            ("component IDs R, G, B with JFIF", try withIDs([82, 71, 66], original)),
        ]
        let rows = [0, 1, 77, 156], columns = [0, 5, 100, 202]
        for (label, bytes) in rgb + ycbcr {
            let data = Data(bytes)
            let reference = try Self.fullDecode(data)
            let sparse = Self.sparse(data, rows: rows, columns: columns)
            if rgb.contains(where: { $0.0 == label }) {
                #expect(sparse == nil, "\(label)")
            } else {
                #expect(sparse?.samples == SparsePixels(sampling: reference, rows: rows, columns: columns).samples, "\(label)")
            }
        }
    }

    /// Changed bytes anywhere (headers, tables, entropy-coded data, markers): nil or pixels, never a crash
    /// or a read outside its buffers; where it still decodes, every pixel is asked for, so every block is
    /// decoded whole.
    @Test(arguments: ["jpeg-dc/420-restart", "jpeg-dc/422", "jpeg-sparse/444-q95", "jpeg-sparse/gray-q60-restart"])
    func changedBytesNeverCrash(name: String) throws {
        let data = try Fixtures.data("\(name).jpg")
        let reference = try Self.fullDecode(data)
        let (rows, columns) = (Array(0 ..< reference.height), Array(0 ..< reference.width))
        var generator = SeededGenerator(state: 77)
        var decoded = 0
        for _ in 0 ..< 60 {
            var bytes = [UInt8](data)
            for _ in 0 ..< Int.random(in: 1 ... 3, using: &generator) {
                bytes[Int.random(in: 2 ..< bytes.count, using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator)
            }
            if let pixels = Self.sparse(Data(bytes), rows: rows, columns: columns) {
                #expect(pixels.samples.count == rows.count * columns.count * pixels.channels)
                decoded += 1
            }
        }
        print("\(name): \(decoded) of 60 changed files decoded")
    }
}

/// The warp of the sparse pixels (``JPEGSparseDecoder/warpAffine(_:into:width:height:transform:valueRange:)``)
/// against the warp of libjpeg's full decode: the same floats, bit for bit.
struct JPEGSparseWarpTests {
    /// Letterbox-like maps: scales from 0.4 to 9 pixels a sample, offsets that leave bands outside the
    /// picture, whole-number positions, mirrored axes and quarter turns (EXIF orientations 5-8).
    static func transforms(width: Int, height: Int, using generator: inout SeededGenerator) -> [PixelTransform] {
        let (w, h) = (Double(width), Double(height))
        var transforms = [
            PixelTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0),
            PixelTransform(a: w / 24, b: 0, c: 0, d: w / 24, tx: w / 48 - 0.5, ty: -h / 5),
            PixelTransform(a: -w / 24, b: 0, c: 0, d: h / 24, tx: w - w / 48 - 0.5, ty: h / 48 - 0.5),
            PixelTransform(a: 0, b: w / 24, c: h / 24, d: 0, tx: w / 48 - 0.5, ty: h / 48 - 0.5),
            PixelTransform(a: 0, b: -w / 24, c: -h / 24, d: 0, tx: w - 0.5, ty: h - 0.5),
        ]
        for _ in 0 ..< 6 {
            let scale = Double.random(in: 0.4 ... 9, using: &generator)
            let (tx, ty) = (Double.random(in: -w / 3 ... w / 2, using: &generator), Double.random(in: -h / 3 ... h / 2, using: &generator))
            let flip = Bool.random(using: &generator) ? -1.0 : 1.0
            if Bool.random(using: &generator) {
                transforms.append(PixelTransform(a: flip * scale, b: 0, c: 0, d: scale, tx: flip < 0 ? w - tx : tx, ty: ty))
            } else {
                transforms.append(PixelTransform(a: 0, b: scale, c: flip * scale, d: 0, tx: tx, ty: flip < 0 ? h - ty : ty))
            }
        }
        return transforms
    }

    /// Also with `asOpenCV`, against ``Image/warpAffineFixedPoint(into:width:height:transform:valueRange:border:)``
    /// of the full decode (the short-range detector's letterbox).
    @Test(arguments: JPEGSparseDecoderTests.fixtures, [false, true])
    func tensorIsTheFullDecodesWarp(name: String, asOpenCV: Bool) throws {
        let data = try Fixtures.data("\(name).jpg")
        let reference = try JPEGSparseDecoderTests.fullDecode(data)
        var generator = SeededGenerator(state: UInt64(name.utf8.count * 7919))
        let size = 24
        for transform in Self.transforms(width: reference.width, height: reference.height, using: &generator) {
            var expected = [Float](repeating: .nan, count: size * size * 3), sparse = expected
            expected.withUnsafeMutableBufferPointer { tensor in
                if asOpenCV {
                    reference.warpAffineFixedPoint(into: tensor, width: size, height: size, transform: transform, valueRange: -1 ... 1, border: .zero)
                } else {
                    reference.warpAffine(into: tensor, width: size, height: size, transform: transform, valueRange: -1 ... 1, border: .zero)
                }
            }
            let warped = data.withUnsafeBytes { bytes in
                sparse.withUnsafeMutableBufferPointer { tensor in
                    JPEGSparseDecoder.warpAffine(
                        bytes, into: tensor, width: size, height: size, transform: transform, valueRange: -1 ... 1, asOpenCV: asOpenCV)
                }
            }
            #expect(warped)
            #expect(sparse.map(\.bitPattern) == expected.map(\.bitPattern), "\(name) \(transform)")
        }
    }

    /// A turn that is not a quarter is left to the full decode.
    @Test func turnedMapsAreRefused() throws {
        let data = try Fixtures.data("jpeg-dc/420.jpg")
        var tensor = [Float](repeating: 0, count: 8 * 8 * 3)
        let warped = data.withUnsafeBytes { bytes in
            tensor.withUnsafeMutableBufferPointer { tensor in
                JPEGSparseDecoder.warpAffine(
                    bytes, into: tensor, width: 8, height: 8, transform: PixelTransform(a: 1, b: 0.1, c: 0, d: 1, tx: 0, ty: 0),
                    valueRange: -1 ... 1)
            }
        }
        #expect(!warped)
    }
}
