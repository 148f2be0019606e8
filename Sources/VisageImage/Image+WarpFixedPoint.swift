import CVisageKernels
import Foundation

extension Image {
    /// Samples the image through an affine map into a Float32 tensor exactly as MediaPipe's CPU
    /// `ImageToTensorCalculator` does: OpenCV's 8-bit `INTER_LINEAR` warp (`cv::warpPerspective` into 8-bit
    /// pixels), then `convertTo` with a scale and an offset.
    ///
    /// OpenCV does not sample at the exact point. It rounds the point to 1/32 of a pixel (`INTER_BITS` = 5,
    /// half to even), weighs the four neighbours with integer weights (15 bits, `INTER_REMAP_COEF_BITS`;
    /// for bilinear taps at 1/32 steps these are the exact products, so a level is
    /// `(Σ (32 − fx or fx)·(32 − fy or fy)·p + 512) >> 10`), and stores the 8-bit level. Level `n` becomes
    /// `Float(n) × scale + lower`, `scale = (upper − lower) / 255` in Float (MediaPipe's
    /// `GetValueRangeTransformation`). Against an exact bilinear sample rounded to a level
    /// (``warpAffine(into:width:height:transform:valueRange:border:roundedToLevels:)`` with
    /// `roundedToLevels`), 2–10 % of the levels differ by one: enough to move an unstable model's output.
    ///
    /// Coordinates as ``warpAffine(into:width:height:transform:valueRange:border:roundedToLevels:)``:
    /// `out(x, y)` samples the stored pixels at `transform.apply(x, y)`, pixel centres at integers. Outside the
    /// image, `.zero` makes a neighbour contribute 0 (OpenCV's `BORDER_CONSTANT`) and `.replicate` clamps each
    /// neighbour to the nearest edge pixel (`BORDER_REPLICATE`). Writes `height × width × 3` floats (NHWC, RGB)
    /// whatever the pixel format (gray replicated, alpha dropped, BGRA swizzled). Orientation is ignored.
    ///
    /// The rows run through CVisageKernels' C kernel of the selected set (`visage_u8_warp_fixed_row`: AVX2
    /// on the AVX2 and AVX-512 sets for 3- and 4-byte pixels, a portable scalar run otherwise); a transform
    /// that keeps the axes (`b` and `c` zero: a letterbox, a crop, a flip) runs whole through
    /// `visage_u8_warp_fixed_scaled`, which blends each output row's two stored rows once and then takes
    /// each column's two taps of the blend (AVX2 on those sets, any pixel format; portable otherwise). Both
    /// compute the same floats bit for bit as the Swift run kept as the reference
    /// (``warpAffineFixedPoint(into:width:height:transform:valueRange:border:kernel:)`` with
    /// ``WarpKernel/swift``; `VISAGE_FIXED_POINT_WARP=swift` makes every call take it, ``WarpKernel/fixedPointSelected``).
    ///
    /// - Precondition: `tensor.count ≥ width × height × 3`, `width` and `height` positive.
    /// - Complexity: O(width × height); an axis-kept transform also blends up to a stored row per output row
    ///   (in scratch memory on the stack when it fits: a few kilobytes for a detector's letterbox).
    public func warpAffineFixedPoint(
        into tensor: UnsafeMutableBufferPointer<Float>, width outWidth: Int, height outHeight: Int,
        transform: PixelTransform, valueRange: ClosedRange<Float>, border: WarpBorder = .zero
    ) {
        warpAffineFixedPoint(
            into: tensor, width: outWidth, height: outHeight, transform: transform, valueRange: valueRange, border: border,
            kernel: .fixedPointSelected)
    }

    /// ``warpAffineFixedPoint(into:width:height:transform:valueRange:border:)`` with its rows sampled by
    /// `kernel`'s C run, or by the Swift run (the reference) with ``WarpKernel/swift``, so tests can hold
    /// each C run against it.
    package func warpAffineFixedPoint(
        into tensor: UnsafeMutableBufferPointer<Float>, width outWidth: Int, height outHeight: Int,
        transform: PixelTransform, valueRange: ClosedRange<Float>, border: WarpBorder, kernel: WarpKernel
    ) {
        precondition(outWidth > 0 && outHeight > 0, "warp size \(outWidth)×\(outHeight) must be positive")
        precondition(tensor.count >= outWidth * outHeight * 3, "tensor of \(tensor.count) floats is smaller than \(outWidth)×\(outHeight)×3")
        let scale = (valueRange.upperBound - valueRange.lowerBound) / 255
        let offset = valueRange.lowerBound
        if let isa = kernel.isa {
            withExtendedLifetime(storage) {
                let (r, g, b) = pixelFormat.rgbOffsets
                var source = visage_u8_warp_fixed_source(
                    pixels: UnsafePointer(storage.base.assumingMemoryBound(to: UInt8.self)), stride: bytesPerRow,
                    bytes_per_pixel: pixelFormat.bytesPerPixel, red: r, green: g, blue: b, max_x: width - 1, max_y: height - 1,
                    replicate: border == .replicate ? 1 : 0, scale: scale, offset: offset)
                if transform.b == 0, transform.c == 0 {
                    // The axes kept (a letterbox, a crop, a flip): the whole warp at once, without gathers.
                    let scratch = visage_u8_warp_fixed_scaled_scratch_size(&source, outWidth)
                    let done = withUnsafeTemporaryAllocation(byteCount: scratch, alignment: 32) { scratch in
                        visage_u8_warp_fixed_scaled(
                            isa, &source, transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty,
                            outWidth, outHeight, tensor.baseAddress!, scratch.baseAddress!)
                    }
                    if done != 0 { return }
                }
                var output = tensor.baseAddress!
                // Level 0's value, as the kernels store it: what every sample of a row wholly outside the picture is.
                let outside = Float(0) * scale + offset
                for y in 0..<outHeight {
                    // The same doubles as the Swift run's below.
                    let rowX = 32 * (transform.b * Double(y) + transform.tx), stepX = 32 * transform.a
                    let rowY = 32 * (transform.d * Double(y) + transform.ty), stepY = 32 * transform.c
                    // The first of the two stored rows the row's points read (when y stays put along it).
                    let firstRow = FixedPointSource.rounded(rowY) >> 5
                    if border == .zero, stepY == 0, firstRow < -1 || firstRow > height - 1 {
                        // Along the row y stays put (a letterbox's band above or below the picture): neither of
                        // the two stored rows it reads exists, so every sample is level 0. The kernels would
                        // take their one-pixel edge path for each of these points (a quarter of a 640×480
                        // letterbox's); the value is the same.
                        output.update(repeating: outside, count: 3 * outWidth)
                    } else {
                        visage_u8_warp_fixed_row(isa, &source, rowX, rowY, stepX, stepY, outWidth, output)
                    }
                    output += 3 * outWidth
                }
            }
            return
        }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 256) { levels in
            for n in 0..<256 { levels[n] = Float(n) * scale + offset }
            withExtendedLifetime(storage) {
                let source = FixedPointSource(image: self, replicate: border == .replicate, levels: UnsafePointer(levels.baseAddress!))
                var output = tensor.baseAddress!
                for y in 0..<outHeight {
                    // In 1/32 pixel: scaling by 32 is exact, so these are 32 × the point, rounded once, as OpenCV's.
                    let rowX = 32 * (transform.b * Double(y) + transform.tx), stepX = 32 * transform.a
                    let rowY = 32 * (transform.d * Double(y) + transform.ty), stepY = 32 * transform.c
                    for x in 0..<outWidth {
                        source.sample(
                            at: FixedPointSource.rounded(rowX + stepX * Double(x)), FixedPointSource.rounded(rowY + stepY * Double(x)),
                            into: output)
                        output += 3
                    }
                }
            }
        }
    }
}

/// The stored pixels as OpenCV's fixed-point bilinear warp reads them.
private struct FixedPointSource {
    let pixels: UnsafePointer<UInt8>
    let stride: Int
    let step: Int
    let (r, g, b): (Int, Int, Int)
    let maxX: Int
    let maxY: Int
    let replicate: Bool
    let levels: UnsafePointer<Float>

    init(image: Image, replicate: Bool, levels: UnsafePointer<Float>) {
        pixels = UnsafePointer(image.storage.base.assumingMemoryBound(to: UInt8.self))
        stride = image.bytesPerRow
        step = image.pixelFormat.bytesPerPixel
        (r, g, b) = image.pixelFormat.rgbOffsets
        (maxX, maxY) = (image.width - 1, image.height - 1)
        self.replicate = replicate
        self.levels = levels
    }

    /// OpenCV's `saturate_cast<int>(v)` of a point in 1/32 pixel: rounded half to even, clamped to 32-bit
    /// integers (NaN to the largest, as OpenCV's `min` then `max` leave it).
    @inline(__always) static func rounded(_ value: Double) -> Int {
        var v = value
        if v.isNaN { v = 0x1p31 - 1 }
        v = Swift.min(Swift.max(v, -0x1p31), 0x1p31 - 1)
        // Adding and removing 1.5 · 2⁵² rounds |v| < 2⁵¹ half to even without a libm call.
        return Int((v + 0x1.8p52) - 0x1.8p52)
    }

    /// Writes the three levels' values at the point (`x`, `y`) given in 1/32 pixel.
    @inline(__always) func sample(at x: Int, _ y: Int, into output: UnsafeMutablePointer<Float>) {
        let (x0, y0) = (x >> 5, y >> 5)
        let (fx, fy) = (x & 31, y & 31)
        let (w00, w10, w01, w11) = ((32 - fx) * (32 - fy), fx * (32 - fy), (32 - fx) * fy, fx * fy)
        if x0 >= 0, y0 >= 0, x0 < maxX, y0 < maxY {
            let p = pixels + (y0 &* stride &+ x0 &* step)
            let q = p + stride
            @inline(__always) func level(_ c: Int) -> Float {
                // Wrapping arithmetic: at most 1024 × 255, far from overflow.
                let sum = w00 &* Int(p[c]) &+ w10 &* Int(p[c &+ step]) &+ w01 &* Int(q[c]) &+ w11 &* Int(q[c &+ step])
                return levels[(sum &+ 512) >> 10]
            }
            output[0] = level(r)
            output[1] = level(g)
            output[2] = level(b)
            return
        }
        // At the edge: each neighbour clamped (replicate) or, outside, contributing 0 (zero border).
        var sums = (0, 0, 0)
        @inline(__always) func add(_ dx: Int, _ dy: Int, _ weight: Int) {
            var (px, py) = (x0 + dx, y0 + dy)
            if replicate {
                (px, py) = (Swift.min(Swift.max(px, 0), maxX), Swift.min(Swift.max(py, 0), maxY))
            } else if px < 0 || py < 0 || px > maxX || py > maxY {
                return
            }
            let p = pixels + py * stride + px * step
            sums.0 += weight * Int(p[r])
            sums.1 += weight * Int(p[g])
            sums.2 += weight * Int(p[b])
        }
        add(0, 0, w00)
        add(1, 0, w10)
        add(0, 1, w01)
        add(1, 1, w11)
        output[0] = levels[(sums.0 + 512) >> 10]
        output[1] = levels[(sums.1 + 512) >> 10]
        output[2] = levels[(sums.2 + 512) >> 10]
    }
}
