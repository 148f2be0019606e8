import Foundation
import Testing
import VisageImage

/// `warpAffineFixedPoint` against OpenCV's own 8-bit warps (Scripts/make-warp-fixtures.py).
struct WarpFixedPointTests {
    struct Corpus: Decodable {
        struct Case: Decodable {
            var transform: [Double]
            var width, height: Int
            var border, levels: String
        }
        var width, height: Int
        var pixels: String
        var cases: [Case]
    }

    static let corpus: Corpus = {
        do {
            return try JSONDecoder().decode(Corpus.self, from: Fixtures.data("warp-fixed-point.json"))
        } catch {
            fatalError("Fixtures/warp-fixed-point.json unreadable: \(error); run Scripts/make-warp-fixtures.py")
        }
    }()

    /// The corpus's RGB source in `format`, with padded rows (alpha 77).
    static func source(_ format: PixelFormat) throws -> Image {
        let rgb = [UInt8](Data(base64Encoded: corpus.pixels)!)
        let (width, height) = (corpus.width, corpus.height)
        let stride = width * format.bytesPerPixel + 3
        var pixels = [UInt8](repeating: 0, count: stride * height)
        let (r, g, b) = format.rgbOffsets
        for y in 0..<height {
            for x in 0..<width {
                let p = y * stride + x * format.bytesPerPixel, q = 3 * (y * width + x)
                pixels[p + r] = rgb[q]
                pixels[p + g] = rgb[q + 1]
                pixels[p + b] = rgb[q + 2]
                if let alpha = format.alphaOffset { pixels[p + alpha] = 77 }
            }
        }
        return try Image(width: width, height: height, pixelFormat: format, pixels: pixels, bytesPerRow: stride)
    }

    static func transform(_ c: Corpus.Case) -> PixelTransform {
        PixelTransform(a: c.transform[0], b: c.transform[1], c: c.transform[2], d: c.transform[3], tx: c.transform[4], ty: c.transform[5])
    }

    @Test("Every level equals cv2.warpPerspective's (INTER_LINEAR, 8-bit), both borders", arguments: [PixelFormat.rgb8, .rgba8, .bgra8])
    func matchesOpenCV(_ format: PixelFormat) throws {
        let image = try Self.source(format)
        #expect(Self.corpus.cases.count == 16)
        for (index, c) in Self.corpus.cases.enumerated() {
            var tensor = [Float](repeating: .nan, count: c.width * c.height * 3)
            tensor.withUnsafeMutableBufferPointer {
                image.warpAffineFixedPoint(
                    into: $0, width: c.width, height: c.height, transform: Self.transform(c), valueRange: 0...255,
                    border: c.border == "zero" ? .zero : .replicate)
            }
            let expected = [UInt8](Data(base64Encoded: c.levels)!).map(Float.init)
            let differing = zip(tensor, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "case \(index) (\(c.border), \(c.width)×\(c.height)): \(differing) of \(expected.count) levels differ")
        }
    }

    @Test("Levels map onto the range as MediaPipe's convertTo: n × (span / 255) + lower")
    func mapsLevelsOntoTheRange() throws {
        let image = try Self.source(.rgb8)
        let c = Self.corpus.cases[1]
        var levels = [Float](repeating: .nan, count: c.width * c.height * 3), mapped = levels
        levels.withUnsafeMutableBufferPointer {
            image.warpAffineFixedPoint(into: $0, width: c.width, height: c.height, transform: Self.transform(c), valueRange: 0...255, border: .replicate)
        }
        mapped.withUnsafeMutableBufferPointer {
            image.warpAffineFixedPoint(into: $0, width: c.width, height: c.height, transform: Self.transform(c), valueRange: -1...1, border: .replicate)
        }
        let scale: Float = 2 / 255
        #expect(mapped == levels.map { $0 * scale - 1 })
    }

    /// OpenCV rounds the point to 1/32 pixel (at most 1/64 off on each axis, so at most 255 · 2/64 levels)
    /// and its result to a level; on average well under a level from the exact sample, and not always the
    /// exact sample rounded.
    @Test("Near the exact bilinear warp, and not identical to it rounded")
    func nearTheExactWarp() throws {
        let image = try Self.source(.rgb8)
        var differsFromRounded = 0, total: Float = 0, count = 0
        for c in Self.corpus.cases {
            var fixed = [Float](repeating: .nan, count: c.width * c.height * 3), exact = fixed
            let border: WarpBorder = c.border == "zero" ? .zero : .replicate
            fixed.withUnsafeMutableBufferPointer {
                image.warpAffineFixedPoint(into: $0, width: c.width, height: c.height, transform: Self.transform(c), valueRange: 0...255, border: border)
            }
            exact.withUnsafeMutableBufferPointer {
                image.warpAffine(into: $0, width: c.width, height: c.height, transform: Self.transform(c), valueRange: 0...255, border: border)
            }
            #expect(zip(fixed, exact).allSatisfy { abs($0 - $1) <= 255 * 2 / 64 + 1 })
            total += zip(fixed, exact).map { abs($0 - $1) }.reduce(0, +)
            count += fixed.count
            differsFromRounded += zip(fixed, exact).filter { $0 != $1.rounded(.toNearestOrEven) }.count
        }
        #expect(total / Float(count) < 0.5)
        #expect(differsFromRounded > 0)
    }

    @Test("Gray images replicate their one channel; far-away and NaN points give the border")
    func grayAndFarAway() throws {
        let image = try Image(width: 3, height: 2, pixelFormat: .gray8, pixels: [10, 20, 30, 40, 50, 60])
        var tensor = [Float](repeating: .nan, count: 3 * 3)
        // Columns: the pixel (1, 0) exactly, a point far outside, NaN.
        let transform = PixelTransform(a: 1e12, b: 0, c: 0, d: 1, tx: 1, ty: 0)
        tensor.withUnsafeMutableBufferPointer {
            image.warpAffineFixedPoint(into: $0, width: 2, height: 1, transform: transform, valueRange: 0...255, border: .zero)
        }
        #expect(Array(tensor[0..<6]) == [20, 20, 20, 0, 0, 0])
        var clamped = [Float](repeating: .nan, count: 3)
        clamped.withUnsafeMutableBufferPointer {
            image.warpAffineFixedPoint(
                into: $0, width: 1, height: 1, transform: PixelTransform(a: 1, b: 0, c: 0, d: 1, tx: .nan, ty: -5), valueRange: 0...255,
                border: .replicate)
        }
        // NaN rounds to the largest coordinate (OpenCV's clamping), so replicate gives the last column's top pixel.
        #expect(clamped == [30, 30, 30])
    }
}
