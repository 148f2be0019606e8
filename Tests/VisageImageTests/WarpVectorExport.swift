import Foundation
import Testing
import VisageImage

/// The warp's interior runs as the Swift run computes them (`warpAffine` with `kernel: .swift`), for the
/// AVX-512 warp kernel on machines without AVX-512: `Scripts/check-kernels-cross.sh` sets
/// `VISAGE_KERNEL_VECTORS`, runs this test (it writes that path + ".warp", read with the other kernels'
/// vectors by `Sources/CVisageKernels/crosscheck/vectors.c`) and runs the AVX2 and AVX-512 warp kernels
/// on each row, which must give the Swift run's values bit for bit. Skipped without the variable: on a
/// CPU that runs a warp kernel, `WarpAffineTests` already holds it against the Swift run.
///
/// Every transform keeps each sample's 2×2 neighbourhood inside the image, so every column of every
/// row is the interior run; rows of 1 to 40 samples (AVX-512's 16-sample steps, AVX2's 8, the 4-sample
/// Swift steps and their tails), 3- and 4-byte pixels with both channel orders, padded rows, rotations
/// (negative steps), and the plain and rounded level mappings.
struct WarpVectorExport {
    static let path = ProcessInfo.processInfo.environment["VISAGE_KERNEL_VECTORS"].map { $0 + ".warp" }

    @Test(.enabled(if: path != nil, "VISAGE_KERNEL_VECTORS names the file Scripts/check-kernels-cross.sh reads"))
    func writeReferenceVectors() throws {
        var words: [UInt32] = [0x3156_4B56]  // "VKV1"
        var records = 0
        var generator = SeededGenerator(state: 0xC0553)
        for format in [PixelFormat.rgb8, .rgba8, .bgra8] {
            let (imageWidth, imageHeight) = (41, 23)
            let stride = imageWidth * format.bytesPerPixel + 5  // padded rows
            let pixels = (0..<(stride * imageHeight)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let image = try Image(width: imageWidth, height: imageHeight, pixelFormat: format, pixels: pixels, bytesPerRow: stride)
            for (index, width) in [1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 20, 23, 31, 32, 33, 40].enumerated() {
                for (rounded, range) in [(false, Float(-1)...1), (true, Float(-1)...1), (false, 0...255), (true, 0...1)] {
                    let height = 1 + index % 3
                    // Output (x, y) samples centre + R(θ) S (x − w/2, y − h/2), within 9 px of the centre.
                    let angle = Double(index) * 0.83 + (rounded ? 0.3 : 0)
                    let reach = 0.5 * (Double(width * width + height * height)).squareRoot()
                    let scale = min(9 / max(reach, 0.5), 1.7) * (range.upperBound > 1 ? 0.93 : 1)
                    let (cosine, sine) = (cos(angle) * scale, sin(angle) * scale)
                    let centre = (20.37, 11.21)
                    let (halfWidth, halfHeight) = (Double(width) / 2, Double(height) / 2)
                    let transform = PixelTransform(
                        a: cosine, b: -sine, c: sine, d: cosine,
                        tx: centre.0 - cosine * halfWidth + sine * halfHeight, ty: centre.1 - sine * halfWidth - cosine * halfHeight)
                    var expected = [Float](repeating: .nan, count: width * height * 3)
                    expected.withUnsafeMutableBufferPointer {
                        image.warpAffine(
                            into: $0, width: width, height: height, transform: transform, valueRange: range, border: .zero,
                            roundedToLevels: rounded, kernel: .swift)
                    }
                    // The 32.32 fixed-point positions the warp hands its interior run, row by row.
                    let fixed = { (value: Double) in Int64(value * 0x1p32) }
                    let (stepX, stepY) = (fixed(transform.a), fixed(transform.c))
                    var ints = [
                        format.bytesPerPixel, format.rgbOffsets.red, format.rgbOffsets.green, format.rgbOffsets.blue,
                        imageWidth, imageHeight, stride, rounded ? 1 : 0, width, height,
                    ]
                    func append(_ value: Int64) { ints += [Int(UInt32(truncatingIfNeeded: value)), Int(UInt32(truncatingIfNeeded: value >> 32))] }
                    append(stepX)
                    append(stepY)
                    for y in 0..<height {
                        let (fx, fy) = (fixed(transform.b * Double(y) + transform.tx), fixed(transform.d * Double(y) + transform.ty))
                        // Every column inside: 0 ≤ position < (size − 1) · 2³², so the run covers the row.
                        for x in [0, width - 1] {
                            let (sx, sy) = (fx &+ stepX &* Int64(x), fy &+ stepY &* Int64(x))
                            try #require(sx >= 0 && sx < Int64(imageWidth - 1) << 32 && sy >= 0 && sy < Int64(imageHeight - 1) << 32)
                        }
                        append(fx)
                        append(fy)
                    }
                    let span = range.upperBound - range.lowerBound
                    let name = "warp \(format) \(width)×\(height) rounded \(rounded) range \(range)"
                    words += [8, UInt32(name.utf8.count)]
                    let bytes = Array(name.utf8) + [UInt8](repeating: 0, count: (4 - name.utf8.count % 4) % 4)
                    for start in Swift.stride(from: 0, to: bytes.count, by: 4) {
                        words.append(bytes[start..<start + 4].enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) })
                    }
                    words.append(UInt32(ints.count))
                    words += ints.map { UInt32(truncatingIfNeeded: $0) }
                    let arrays: [[Float]] = [pixels.map(Float.init), [span / 255, range.lowerBound, span], expected]
                    words.append(UInt32(arrays.count))
                    for array in arrays {
                        words.append(UInt32(array.count))
                        words += array.map(\.bitPattern)
                    }
                    records += 1
                }
            }
        }
        try words.map(\.littleEndian).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: Self.path!)) }
        #expect(records == 3 * 17 * 4)
    }
}
