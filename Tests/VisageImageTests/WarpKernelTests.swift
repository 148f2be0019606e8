import Testing
import VisageImage

/// Each SIMD warp kernel against the Swift interior run, its reference: the same floats, bit for bit.
struct WarpKernelTests {
    static let cases: [(PixelFormat, WarpBorder, Bool)] = PixelFormat.allCases.flatMap { format in
        [WarpBorder.zero, .replicate].flatMap { border in [false, true].map { (format, border, $0) } }
    }

    /// The tensor `kernel` writes for one warp.
    static func warp(
        _ image: Image, width: Int, height: Int, transform: PixelTransform, range: ClosedRange<Float>, border: WarpBorder,
        rounded: Bool, kernel: WarpKernel
    ) -> [UInt32] {
        var tensor = [Float](repeating: .nan, count: width * height * 3)
        tensor.withUnsafeMutableBufferPointer {
            image.warpAffine(
                into: $0, width: width, height: height, transform: transform, valueRange: range, border: border,
                roundedToLevels: rounded, kernel: kernel)
        }
        return tensor.map(\.bitPattern)
    }

    @Test("SIMD kernels equal the Swift run bit for bit", arguments: cases)
    func matchesSwiftRun(_ format: PixelFormat, _ border: WarpBorder, _ rounded: Bool) throws {
        var generator = SeededGenerator(state: 0xC0FFEE)
        let image = try randomImage(width: 53, height: 41, format: format, using: &generator)
        let ranges: [ClosedRange<Float>] = [-1...1, 0...1, 0...255, -0.7...3.3]
        for trial in 0..<60 {
            // Widths 1…40 leave every remainder of the kernels' 8-pixel steps.
            let (width, height) = (trial % 40 + 1, Int.random(in: 1...9, using: &generator))
            let transform: PixelTransform
            if trial % 5 == 0 {
                // A letterbox: the whole image scaled into the output, bands above and below or beside it.
                let scale = Double(max(image.width, image.height)) / Double(max(width, height))
                transform = PixelTransform.scale(x: scale, y: scale).concatenating(
                    .translation(x: -Double(width) / 2 + Double(image.width) / scale / 2, y: -Double(height) / 2 + Double(image.height) / scale / 2))
            } else {
                transform = PixelTransform.translation(
                    x: Double.random(in: 0...53, using: &generator), y: Double.random(in: 0...41, using: &generator))
                    .concatenating(.rotation(Double.random(in: -Double.pi...Double.pi, using: &generator)))
                    .concatenating(.scale(x: Double.random(in: 0.2...3, using: &generator), y: Double.random(in: 0.2...3, using: &generator)))
                    .concatenating(.translation(x: -Double(width) / 2, y: -Double(height) / 2))
            }
            let range = ranges[trial % ranges.count]
            let expected = Self.warp(
                image, width: width, height: height, transform: transform, range: range, border: border, rounded: rounded, kernel: .swift)
            for kernel in WarpKernel.simd {
                let actual = Self.warp(
                    image, width: width, height: height, transform: transform, range: range, border: border, rounded: rounded, kernel: kernel)
                #expect(actual == expected, "\(kernel), trial \(trial): \(transform) into \(width)×\(height)")
            }
        }
    }

    /// Unpadded rows up to the last pixel: the gathers' 4-byte reads must stay inside the image.
    @Test("Unpadded images, samples up to the last pixel", arguments: PixelFormat.allCases)
    func unpaddedEdges(_ format: PixelFormat) throws {
        var generator = SeededGenerator(state: 11)
        let (width, height) = (19, 6)
        let image = try randomImage(width: width, height: height, format: format, padding: 0, using: &generator)
        let transform = PixelTransform(a: 17.9 / 36, b: 0, c: 0, d: 4.9 / 8, tx: 0.05, ty: 0.05)
        let expected = Self.warp(
            image, width: 37, height: 9, transform: transform, range: 0...1, border: .zero, rounded: false, kernel: .swift)
        for kernel in WarpKernel.simd {
            let actual = Self.warp(image, width: 37, height: 9, transform: transform, range: 0...1, border: .zero, rounded: false, kernel: kernel)
            #expect(actual == expected, "\(kernel)")
        }
    }
}
