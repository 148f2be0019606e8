import Testing
import VisageImage

/// Each C run of the fixed-point warp (CVisageKernels' `visage_u8_warp_fixed_row`: the portable scalar
/// run, and AVX2 where the CPU has it) against the Swift run, its reference: the same floats, bit for bit.
struct WarpFixedPointKernelTests {
    static let cases: [(PixelFormat, WarpBorder)] = PixelFormat.allCases.flatMap { format in
        [WarpBorder.zero, .replicate].map { (format, $0) }
    }

    /// The tensor `kernel` writes for one warp.
    static func warp(
        _ image: Image, width: Int, height: Int, transform: PixelTransform, range: ClosedRange<Float>, border: WarpBorder,
        kernel: WarpKernel
    ) -> [UInt32] {
        var tensor = [Float](repeating: .nan, count: width * height * 3)
        tensor.withUnsafeMutableBufferPointer {
            image.warpAffineFixedPoint(
                into: $0, width: width, height: height, transform: transform, valueRange: range, border: border, kernel: kernel)
        }
        return tensor.map(\.bitPattern)
    }

    @Test("Every C run equals the Swift run bit for bit", arguments: cases)
    func matchesSwiftRun(_ format: PixelFormat, _ border: WarpBorder) throws {
        #expect(WarpKernel.available.count >= 1)
        var generator = SeededGenerator(state: 0xF1C5ED)
        let image = try randomImage(width: 53, height: 41, format: format, using: &generator)
        let ranges: [ClosedRange<Float>] = [-1...1, 0...1, 0...255, -0.7...3.3]
        for trial in 0..<80 {
            // Widths 1…40 leave every remainder of the AVX2 run's 8-pixel steps.
            let (width, height) = (trial % 40 + 1, Int.random(in: 1...9, using: &generator))
            let transform: PixelTransform
            switch trial % 8 {
            case 0:
                // A letterbox: the whole image scaled into the output, bands above and below or beside it.
                let scale = Double(max(image.width, image.height)) / Double(max(width, height))
                transform = PixelTransform.scale(x: scale, y: scale).concatenating(
                    .translation(x: -Double(width) / 2 + Double(image.width) / scale / 2, y: -Double(height) / 2 + Double(image.height) / scale / 2))
            case 1:
                // Points on exact 1/64 steps: every rounding of a half to even.
                transform = PixelTransform(a: 1.0 / 64 * Double(trial % 5 + 1), b: 0.5 / 64, c: 0.25 / 64, d: 1.0 / 64, tx: 3 + 1.0 / 64, ty: 2 + 3.0 / 64)
            case 2:
                // Far outside, out of 32-bit range in 1/32 pixel, and not a number: the edge rules.
                let far = [1e9, -1e9, 7e7, .nan, .infinity][trial % 5]
                transform = PixelTransform(a: 1, b: 0, c: 0, d: 1, tx: far, ty: Double(trial % 41))
            default:
                transform = PixelTransform.translation(
                    x: Double.random(in: -5...58, using: &generator), y: Double.random(in: -5...46, using: &generator))
                    .concatenating(.rotation(Double.random(in: -Double.pi...Double.pi, using: &generator)))
                    .concatenating(.scale(x: Double.random(in: 0.2...3, using: &generator), y: Double.random(in: 0.2...3, using: &generator)))
                    .concatenating(.translation(x: -Double(width) / 2, y: -Double(height) / 2))
            }
            let range = ranges[trial % ranges.count]
            let expected = Self.warp(image, width: width, height: height, transform: transform, range: range, border: border, kernel: .swift)
            for kernel in WarpKernel.available {
                let actual = Self.warp(image, width: width, height: height, transform: transform, range: range, border: border, kernel: kernel)
                #expect(actual == expected, "\(kernel), trial \(trial): \(transform) into \(width)×\(height)")
            }
        }
    }

    /// Rows along which y stays put and that read no stored row (a letterbox's bands above and below the
    /// picture, far and non-finite rows) are filled with level 0's value without the kernel: the same floats
    /// as the Swift run, and the rows that still touch the first or last stored row keep their samples.
    @Test("Rows wholly above or below the picture", arguments: cases)
    func rowsOutside(_ format: PixelFormat, _ border: WarpBorder) throws {
        var generator = SeededGenerator(state: 0x5EED17)
        let image = try randomImage(width: 53, height: 41, format: format, using: &generator)
        // Offsets of the first output row, in stored rows: well outside, one row out (its second neighbour
        // is row 0), exactly on and just past the edges, and the rounding into 1/32 pixel at both ends.
        var starts: [Double] = [-1e9, 1e9, .nan, .infinity, -.infinity, -80, -2, -1 - 1.0 / 32, -1 - 1.0 / 64, -1, -0.5, -1.0 / 64]
        starts += [39.99, 40 - 1.0 / 64, 40, 40 + 1.0 / 64, 40 + 1.0 / 32, 40.5, 41, 60]
        let ranges: [ClosedRange<Float>] = [-1...1, 0...1, 0...255, -0.7...3.3]
        for (index, start) in starts.enumerated() {
            // Rows 0.25 or 1.75 stored rows apart, and a row that moves along x with a shear (b) left alone.
            for (d, b) in [(0.25, 0.0), (1.75, 0.0), (0.5, 0.3)] {
                let transform = PixelTransform(a: 53.0 / 40, b: b, c: 0, d: d, tx: -0.5, ty: start)
                let range = ranges[index % ranges.count]
                let expected = Self.warp(image, width: 40, height: 24, transform: transform, range: range, border: border, kernel: .swift)
                for kernel in WarpKernel.available {
                    let actual = Self.warp(image, width: 40, height: 24, transform: transform, range: range, border: border, kernel: kernel)
                    #expect(actual == expected, "\(kernel): \(transform)")
                }
            }
        }
        // The detector's letterbox of a 640×480 picture (128×128, bands of 16 rows above and below).
        let photo = try randomImage(width: 640, height: 480, format: format, using: &generator)
        let scale = 640.0 / 128
        let letterbox = PixelTransform(a: scale, b: 0, c: 0, d: scale, tx: scale / 2 - 0.5, ty: scale / 2 - 0.5 - 16 * scale)
        let expected = Self.warp(photo, width: 128, height: 128, transform: letterbox, range: -1...1, border: border, kernel: .swift)
        for kernel in WarpKernel.available {
            #expect(Self.warp(photo, width: 128, height: 128, transform: letterbox, range: -1...1, border: border, kernel: kernel) == expected)
        }
    }

    /// Unpadded rows up to the last pixel: the gathers' 4-byte reads must stay inside the image, and
    /// a mesh-sized output (256×256) runs long interior rows.
    @Test("Unpadded images, samples up to the last pixel, long rows", arguments: PixelFormat.allCases)
    func unpaddedEdges(_ format: PixelFormat) throws {
        var generator = SeededGenerator(state: 12)
        let (width, height) = (19, 6)
        let image = try randomImage(width: width, height: height, format: format, padding: 0, using: &generator)
        for (transform, size) in [
            (PixelTransform(a: 17.9 / 36, b: 0, c: 0, d: 4.9 / 8, tx: 0.05, ty: 0.05), (37, 9)),
            (PixelTransform(a: 18.0 / 255, b: 0.01, c: -0.003, d: 5.0 / 255, tx: 0, ty: 0), (256, 256)),
        ] {
            let expected = Self.warp(
                image, width: size.0, height: size.1, transform: transform, range: -1...1, border: .zero, kernel: .swift)
            for kernel in WarpKernel.available {
                let actual = Self.warp(image, width: size.0, height: size.1, transform: transform, range: -1...1, border: .zero, kernel: kernel)
                #expect(actual == expected, "\(kernel), \(size)")
            }
        }
    }

    /// Transforms that keep the axes (b = c = 0) take `visage_u8_warp_fixed_scaled`, which blends each output
    /// row's two stored rows once and then takes each column's taps of the blend: scales up and down, flips,
    /// points on exact 1/64 steps, outputs reaching past every edge, far and non-finite offsets, signed
    /// zeros in b and c, and unpadded images read to their last pixel — the Swift run's floats bit for bit.
    @Test("Transforms that keep the axes: the whole warp at once", arguments: cases)
    func axesKept(_ format: PixelFormat, _ border: WarpBorder) throws {
        var generator = SeededGenerator(state: 0xA11E5)
        let ranges: [ClosedRange<Float>] = [-1...1, 0...1, 0...255, -0.7...3.3]
        let far: [Double] = [1e9, -1e9, 7e7, .nan, .infinity, -.infinity, 0, -0.0]
        for trial in 0..<160 {
            let image = try randomImage(
                width: Int.random(in: 1...48, using: &generator), height: Int.random(in: 1...36, using: &generator), format: format,
                padding: trial % 2 == 0 ? 0 : 3, using: &generator)
            let (width, height) = (Int.random(in: 1...40, using: &generator), Int.random(in: 1...12, using: &generator))
            var (a, d) = (Double.random(in: -4...4, using: &generator), Double.random(in: -4...4, using: &generator))
            var (tx, ty) = (Double.random(in: -20...60, using: &generator), Double.random(in: -20...45, using: &generator))
            switch trial % 4 {
            case 0:
                // Exact 1/64 steps: every rounding of a half to even.
                (a, d) = (Double(Int.random(in: -8...8, using: &generator)) / 16, Double(Int.random(in: -8...8, using: &generator)) / 64)
                (tx, ty) = (Double(Int.random(in: -64...2000, using: &generator)) / 64, Double(Int.random(in: -64...1500, using: &generator)) / 64)
            case 1:
                // Far, non-finite and zero offsets and scales.
                tx = far[trial / 4 % far.count]
                if trial % 3 == 0 { ty = far[(trial / 4 + 3) % far.count] }
                if trial % 5 == 0 { a = far[(trial / 4 + 5) % far.count] }
            case 2:
                // A letterbox of the image, the detector's kind: bands on two sides.
                let scale = Double(max(image.width, image.height)) / Double(max(width, height))
                (a, d, tx) = (scale, scale, scale / 2 - 0.5)
                ty = scale / 2 - 0.5 - (Double(height) - Double(image.height) / scale) / 2 * scale
            default:
                break
            }
            let zeros = [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0)][trial % 4]
            let transform = PixelTransform(a: a, b: zeros.0, c: zeros.1, d: d, tx: tx, ty: ty)
            let range = ranges[trial % ranges.count]
            let expected = Self.warp(image, width: width, height: height, transform: transform, range: range, border: border, kernel: .swift)
            for kernel in WarpKernel.available {
                let actual = Self.warp(image, width: width, height: height, transform: transform, range: range, border: border, kernel: kernel)
                #expect(actual == expected, "\(kernel), trial \(trial): \(transform) of \(image.width)×\(image.height) into \(width)×\(height)")
            }
        }
    }
}
