import Foundation

extension Image {
    /// Samples this image, a picture decoded at 1/`factor` of its size whose pixels are the means of
    /// `factor × factor` blocks (a JPEG's DC terms at 1/8, ``JPEGDCDecoder``), at the points where a
    /// bilinear warp of the whole picture would sample it, and writes a model's Float32 input tensor as
    /// ``warpAffine(into:width:height:transform:valueRange:border:roundedToLevels:)`` would from the
    /// whole picture.
    ///
    /// Three things make the reduced picture stand in for the whole one (shrink on load's parity):
    /// - **The same points.** `transform` maps output pixels to the whole picture's stored pixels; a
    ///   whole-picture pixel `s` lies at `(s + 0.5) / factor − 0.5` in this image. (Warping this image as a
    ///   picture of its own would sample `(factor − 1) / 2` whole-picture pixels off: 3.5 at 1/8.)
    /// - **The same edges.** A point inside the whole picture reads the nearest block, even within half a
    ///   block of its edge, and the zero border comes in only as the whole picture's bilinear warp lets it:
    ///   by the point's distance past the outer pixel centre, at most one whole-picture pixel.
    /// - **Values at points, not block means.** A block mean is the picture blurred by a box of one
    ///   reduced pixel (variance 1/12 per axis); the three taps (−1, 26, −1) / 24 undo that to second order,
    ///   and a Catmull-Rom cubic then interpolates the points between block centres, where bilinear
    ///   interpolation would blur them again. Samples are clamped to 0…255.
    ///
    /// The point sampling of a whole picture also picks up its pixel noise, which no reduced decode holds:
    /// parity is close, not exact.
    ///
    /// - Parameters:
    ///   - fullWidth: the whole picture's stored width; this image is `⌈fullWidth / factor⌉` wide (and
    ///     likewise high).
    /// - Returns: false, writing nothing, when `transform` is not axis-aligned (a letterbox or crop in any
    ///   EXIF orientation is): the caller then warps another way.
    /// - Precondition: `tensor.count ≥ width × height × 3`, `width` and `height` positive, `factor ≥ 1`.
    /// - Complexity: O(height × (reduced side + width)) with six taps per axis.
    package func sampleBlockMeans(
        into tensor: UnsafeMutableBufferPointer<Float>, width outWidth: Int, height outHeight: Int,
        transform: PixelTransform, fullWidth: Int, fullHeight: Int, factor: Int, valueRange: ClosedRange<Float>
    ) -> Bool {
        precondition(outWidth > 0 && outHeight > 0 && factor >= 1, "sampling \(outWidth)×\(outHeight) at 1/\(factor)")
        precondition(tensor.count >= outWidth * outHeight * 3, "tensor of \(tensor.count) floats is smaller than \(outWidth)×\(outHeight)×3")
        // Along each output axis the point moves along one stored axis only.
        guard let transposed = transform.swapsAxes else { return false }
        // Output columns walk stored columns (rows when transposed); output rows the other stored axis.
        let columns = transposed
            ? BlockMeanTaps(count: outWidth, start: transform.ty, step: transform.c, fullSize: fullHeight, reducedSize: height, factor: factor)
            : BlockMeanTaps(count: outWidth, start: transform.tx, step: transform.a, fullSize: fullWidth, reducedSize: width, factor: factor)
        let rows = transposed
            ? BlockMeanTaps(count: outHeight, start: transform.tx, step: transform.b, fullSize: fullWidth, reducedSize: width, factor: factor)
            : BlockMeanTaps(count: outHeight, start: transform.ty, step: transform.d, fullSize: fullHeight, reducedSize: height, factor: factor)
        let bytesPerPixel = pixelFormat.bytesPerPixel, (r, g, b) = pixelFormat.rgbOffsets
        // Byte steps along the reduced axis an output row walks (inner) and the one its taps cross (outer).
        let (inner, outer) = transposed ? (bytesPerRow, bytesPerPixel) : (bytesPerPixel, bytesPerRow)
        let innerCount = transposed ? height : width
        let scale = (valueRange.upperBound - valueRange.lowerBound) / 255, offset = valueRange.lowerBound
        let tapCount = BlockMeanTaps.tapCount
        withExtendedLifetime(storage) {
            let pixels = UnsafePointer(storage.base.assumingMemoryBound(to: UInt8.self))
            // One output row's taps combined along the outer axis, for every reduced pixel of the inner axis it reads.
            let line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: innerCount)
            defer { line.deallocate() }
            let needed = columns.indexRange
            var output = tensor.baseAddress!
            for y in 0..<outHeight {
                let rowCoverage = rows.coverage[y]
                guard rowCoverage > 0 else {
                    for _ in 0..<outWidth {
                        (output[0], output[1], output[2]) = (offset, offset, offset)
                        output += 3
                    }
                    continue
                }
                for i in needed {
                    var sum = SIMD4<Float>()
                    for tap in 0..<tapCount {
                        let p = pixels + rows.indices[y * tapCount + tap] * outer + i * inner
                        sum += rows.weights[y * tapCount + tap] * SIMD4(Float(p[r]), Float(p[g]), Float(p[b]), 0)
                    }
                    line[i] = sum
                }
                for x in 0..<outWidth {
                    var sum = SIMD4<Float>()
                    for tap in 0..<tapCount {
                        sum += columns.weights[x * tapCount + tap] * line[columns.indices[x * tapCount + tap]]
                    }
                    let value = sum.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255)) * (rowCoverage * columns.coverage[x])
                    output[0] = value.x * scale + offset
                    output[1] = value.y * scale + offset
                    output[2] = value.z * scale + offset
                    output += 3
                }
            }
        }
        return true
    }
}

/// The taps of one output axis of ``Image/sampleBlockMeans(into:width:height:transform:fullWidth:fullHeight:factor:valueRange:)``:
/// for each output pixel, six reduced-pixel indices (clamped to the image) and their weights, and the
/// share of the whole picture's bilinear sample that falls inside the picture.
struct BlockMeanTaps {
    static let tapCount = 6
    var indices: [Int]
    var weights: [Float]
    var coverage: [Float]

    /// Output pixel `i` samples whole-picture coordinate `start + i · step` along an axis of `fullSize`
    /// pixels, `reducedSize` in the reduced image.
    init(count: Int, start: Double, step: Double, fullSize: Int, reducedSize: Int, factor: Int) {
        indices = []
        weights = []
        coverage = []
        indices.reserveCapacity(count * Self.tapCount)
        weights.reserveCapacity(count * Self.tapCount)
        for i in 0..<count {
            let full = start + Double(i) * step
            // The whole picture's bilinear warp with a zero border: its weight inside the picture.
            coverage.append(Float(min(max(min(full + 1, Double(fullSize) - full), 0), 1)))
            let point = full.isFinite ? min(max((full + 0.5) / Double(factor) - 0.5, 0), Double(reducedSize - 1)) : 0
            let base = point.rounded(.down)
            let cubic = Self.catmullRom(Float(point - base))
            // The cubic's four taps at base − 1 … base + 2, each spread by the box's inverse over its neighbours.
            var spread = [Float](repeating: 0, count: Self.tapCount)
            for (k, weight) in cubic.enumerated() {
                spread[k] += -weight / 24
                spread[k + 1] += weight * 26 / 24
                spread[k + 2] += -weight / 24
            }
            for tap in 0..<Self.tapCount {
                indices.append(min(max(Int(base) - 2 + tap, 0), reducedSize - 1))
                weights.append(spread[tap])
            }
        }
    }

    /// The reduced pixels the taps read.
    var indexRange: ClosedRange<Int> { (indices.min() ?? 0)...(indices.max() ?? 0) }

    /// Catmull-Rom weights (a = −0.5) of the four samples around a point at fraction `f` past the second.
    static func catmullRom(_ f: Float) -> [Float] {
        let f2 = f * f, f3 = f2 * f
        return [
            (-f3 + 2 * f2 - f) / 2,
            (3 * f3 - 5 * f2 + 2) / 2,
            (-3 * f3 + 4 * f2 + f) / 2,
            (f3 - f2) / 2,
        ]
    }
}
