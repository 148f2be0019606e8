import Foundation
import Testing
import VisageImage

struct WarpAffineTests {
    static let cases: [(PixelFormat, WarpBorder)] = PixelFormat.allCases.flatMap { format in
        [WarpBorder.zero, .replicate].map { (format, $0) }
    }

    @Test("Matches the plain reference on random affine transforms (max error ≤ 1e-4)", arguments: cases)
    func matchesReference(_ format: PixelFormat, _ border: WarpBorder) throws {
        var generator = SeededGenerator(state: 0x5EED)
        let image = try randomImage(width: 29, height: 17, format: format, using: &generator)
        for trial in 0..<40 {
            let (width, height) = (Int.random(in: 1...19, using: &generator), Int.random(in: 1...13, using: &generator))
            // Rotation, anisotropic scale and shear, centred so most samples land inside, some outside.
            let transform = PixelTransform.translation(
                x: Double.random(in: -4...33, using: &generator), y: Double.random(in: -4...21, using: &generator))
                .concatenating(.rotation(Double.random(in: -Double.pi...Double.pi, using: &generator)))
                .concatenating(.scale(x: Double.random(in: 0.3...2.5, using: &generator), y: Double.random(in: 0.3...2.5, using: &generator)))
                .concatenating(PixelTransform(a: 1, b: Double.random(in: -0.3...0.3, using: &generator), c: 0, d: 1, tx: 0, ty: 0))
                .concatenating(.translation(x: -Double(width) / 2, y: -Double(height) / 2))
            let range: ClosedRange<Float> = trial % 2 == 0 ? -1...1 : 0...1
            var tensor = [Float](repeating: .nan, count: width * height * 3)
            tensor.withUnsafeMutableBufferPointer {
                image.warpAffine(into: $0, width: width, height: height, transform: transform, valueRange: range, border: border)
            }
            let expected = referenceWarp(image, width: width, height: height, transform: transform, valueRange: range, border: border)
            let error = zip(tensor, expected).map { abs($0 - $1) }.max() ?? 0
            #expect(error <= 1e-4, "trial \(trial): \(transform) into \(width)×\(height)")
        }
    }

    @Test("Rounded to levels: the 0…255 warp rounded ties-to-even, then mapped", arguments: cases)
    func roundedToLevels(_ format: PixelFormat, _ border: WarpBorder) throws {
        var generator = SeededGenerator(state: 0x1E7E1)
        let image = try randomImage(width: 23, height: 19, format: format, using: &generator)
        for trial in 0..<20 {
            let transform = PixelTransform.translation(x: 11, y: 9)
                .concatenating(.rotation(Double(trial) * 0.37))
                .concatenating(.scale(x: 0.61, y: 0.58))
                .concatenating(.translation(x: -15, y: -14))
            var levels = [Float](repeating: .nan, count: 31 * 29 * 3), rounded = levels
            levels.withUnsafeMutableBufferPointer {
                image.warpAffine(into: $0, width: 31, height: 29, transform: transform, valueRange: 0...255, border: border)
            }
            rounded.withUnsafeMutableBufferPointer {
                image.warpAffine(into: $0, width: 31, height: 29, transform: transform, valueRange: -1...1, border: border, roundedToLevels: true)
            }
            let expected = levels.map { $0.rounded(.toNearestOrEven) / 255 * 2 - 1 }
            #expect(rounded == expected, "trial \(trial)")
        }
    }

    /// Unpadded rows: the interior's 4-byte reads of the last columns and row must stay inside the pixels.
    @Test("Unpadded images up to the last pixel", arguments: PixelFormat.allCases)
    func unpaddedEdges(_ format: PixelFormat) throws {
        var generator = SeededGenerator(state: 7)
        let (width, height) = (9, 5)
        let image = try randomImage(width: width, height: height, format: format, padding: 0, using: &generator)
        // Samples from just inside the top-left corner to just inside the bottom-right one.
        let transform = PixelTransform(a: 7.9 / 12, b: 0, c: 0, d: 3.9 / 6, tx: 0.05, ty: 0.05)
        var tensor = [Float](repeating: .nan, count: 13 * 7 * 3)
        tensor.withUnsafeMutableBufferPointer {
            image.warpAffine(into: $0, width: 13, height: 7, transform: transform, valueRange: 0...1)
        }
        let expected = referenceWarp(image, width: 13, height: 7, transform: transform, valueRange: 0...1, border: .zero)
        #expect(zip(tensor, expected).allSatisfy { abs($0 - $1) <= 1e-4 })
    }

    @Test func identityCopiesPixelsAndMapsTheRange() throws {
        let image = try Image(width: 2, height: 1, pixelFormat: .bgra8, pixels: [10, 20, 30, 99, 0, 255, 128, 7])
        var tensor = [Float](repeating: 0, count: 6)
        tensor.withUnsafeMutableBufferPointer {
            image.warpAffine(into: $0, width: 2, height: 1, transform: .identity, valueRange: 0...255)
        }
        #expect(tensor == [30, 20, 10, 128, 255, 0])
    }

    @Test func outsideSamplesTakeTheBorder() throws {
        let image = try Image(width: 1, height: 1, pixelFormat: .gray8, pixels: [200])
        var zero = [Float](repeating: 0, count: 3), edge = [Float](repeating: 0, count: 3)
        let far = PixelTransform.translation(x: 50, y: -50)
        zero.withUnsafeMutableBufferPointer { image.warpAffine(into: $0, width: 1, height: 1, transform: far, valueRange: -1...1) }
        edge.withUnsafeMutableBufferPointer {
            image.warpAffine(into: $0, width: 1, height: 1, transform: far, valueRange: -1...1, border: .replicate)
        }
        #expect(zero == [-1, -1, -1])
        #expect(edge.allSatisfy { abs($0 - (-1 + 400 / 255)) < 1e-6 })
    }

    @Test("Huge and non-finite transforms sample the border", arguments: [WarpBorder.zero, .replicate])
    func hugeAndNonFiniteTransforms(_ border: WarpBorder) throws {
        var generator = SeededGenerator(state: 99)
        let image = try randomImage(width: 6, height: 4, format: .rgb8, using: &generator)
        for transform in [PixelTransform(a: 1, b: 0, c: 0, d: 1, tx: 1e12, ty: 2), PixelTransform(a: 3e9, b: 0, c: 0, d: -1e10, tx: 0, ty: 3)] {
            var tensor = [Float](repeating: .nan, count: 5 * 3 * 3)
            tensor.withUnsafeMutableBufferPointer {
                image.warpAffine(into: $0, width: 5, height: 3, transform: transform, valueRange: 0...1, border: border)
            }
            let expected = referenceWarp(image, width: 5, height: 3, transform: transform, valueRange: 0...1, border: border)
            #expect(zip(tensor, expected).allSatisfy { abs($0 - $1) <= 1e-4 }, "\(transform)")
        }
        var tensor = [Float](repeating: .nan, count: 3)
        let nan = PixelTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        tensor.withUnsafeMutableBufferPointer { image.warpAffine(into: $0, width: 1, height: 1, transform: nan, valueRange: -1...1, border: border) }
        #expect(tensor.allSatisfy { $0.isFinite })
        if border == .zero { #expect(tensor == [-1, -1, -1]) }
    }
}
