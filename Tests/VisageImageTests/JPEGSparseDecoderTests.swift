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

    /// The full decode's pixels at `rows` × `columns`, as ``SparsePixels`` holds them.
    static func expected(_ image: Image, rows: [Int], columns: [Int]) -> [UInt8] {
        let packed = image.packedPixels, channels = image.pixelFormat.bytesPerPixel
        var samples: [UInt8] = []
        for y in rows {
            for x in columns {
                let at = (y * image.width + x) * channels
                samples += packed[at ..< at + channels]
            }
        }
        return samples
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
            #expect(decoded.samples == Self.expected(reference, rows: rows, columns: columns), "\(name) rows \(rows) columns \(columns)")
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
}
