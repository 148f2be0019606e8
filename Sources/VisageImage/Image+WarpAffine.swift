extension Image {
    /// Samples the image through an affine map straight into a model's Float32 input tensor: the
    /// crop-rotate-scale that feeds every network.
    ///
    /// OpenCV `warpAffine` with `WARP_INVERSE_MAP` semantics: `out(x, y)` is the bilinear sample of the
    /// stored pixels at `transform.apply(x, y)`, integer coordinates at pixel centres, origin at the top left.
    /// Samples outside the image come from `border`. Writes `height × width × 3` floats (NHWC, batch 1, RGB)
    /// whatever the pixel format (gray replicated, alpha dropped, BGRA swizzled), mapping 0…255 linearly
    /// onto `valueRange`. Orientation is ignored: the transform addresses the stored pixels.
    ///
    /// - Precondition: `tensor.count ≥ width × height × 3`, `width` and `height` positive.
    /// - Complexity: O(width × height); no allocation.
    public func warpAffine(
        into tensor: UnsafeMutableBufferPointer<Float>, width outWidth: Int, height outHeight: Int,
        transform: PixelTransform, valueRange: ClosedRange<Float>, border: WarpBorder = .zero
    ) {
        precondition(outWidth > 0 && outHeight > 0, "warp size \(outWidth)×\(outHeight) must be positive")
        precondition(tensor.count >= outWidth * outHeight * 3, "tensor of \(tensor.count) floats is smaller than \(outWidth)×\(outHeight)×3")
        let scale = (valueRange.upperBound - valueRange.lowerBound) / 255
        let offset = valueRange.lowerBound
        let replicate = border == .replicate
        let (maxX, maxY) = (Double(width - 1), Double(height - 1))
        withExtendedLifetime(storage) {
            let source = WarpSource(image: self)
            var output = tensor.baseAddress!
            /// The sample at output column `x` of a row, in Double coordinates, with any border.
            func general(_ x: Int, rowX: Double, rowY: Double) -> SIMD3<Float> {
                var sx = rowX + transform.a * Double(x)
                var sy = rowY + transform.c * Double(x)
                if replicate {
                    // Clamping the point samples exactly what clamping each neighbour would.
                    sx = sx.isNaN ? 0 : min(max(sx, 0), maxX)
                    sy = sy.isNaN ? 0 : min(max(sy, 0), maxY)
                }
                // NaN and far-away coordinates sample the zero border.
                guard sx > -1, sy > -1, sx < maxX + 1, sy < maxY + 1 else { return SIMD3() }
                // floor(s) as the truncation of s + 1, minus 1: exact here since s > −1, and no libm call.
                let x0 = Int(sx + 1) - 1, y0 = Int(sy + 1) - 1
                let fx = Float(sx - Double(x0)), fy = Float(sy - Double(y0))
                let weights = SIMD4((1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy)
                return source.sample(x0: x0, y0: y0, weights: weights, replicate: replicate)
            }
            func store(_ rgb: SIMD3<Float>) {
                let value = rgb * scale + offset
                output[0] = value.x
                output[1] = value.y
                output[2] = value.z
                output += 3
            }
            let stepX = FixedPoint(transform.a), stepY = FixedPoint(transform.c)
            for y in 0..<outHeight {
                // Along a row the sample point moves by (a, c) per pixel.
                let rowX = transform.b * Double(y) + transform.tx
                let rowY = transform.d * Double(y) + transform.ty
                // The columns whose 2×2 neighbourhood lies inside the image run in 32.32 fixed point:
                // integer steps, no conversions or bounds checks (position error at most width × 2⁻³² pixel).
                var interior = 0..<0
                if let stepX, let stepY, let startX = FixedPoint(rowX), let startY = FixedPoint(rowY), source.allowsFixedPoint {
                    interior = FixedPoint.span(start: startX, step: stepX, below: source.maxX, count: outWidth)
                        .clamped(to: FixedPoint.span(start: startY, step: stepY, below: source.maxY, count: outWidth))
                    if !interior.isEmpty {
                        for x in 0..<interior.lowerBound { store(general(x, rowX: rowX, rowY: rowY)) }
                        var fx = startX.value &+ stepX.value &* Int64(interior.lowerBound)
                        var fy = startY.value &+ stepY.value &* Int64(interior.lowerBound)
                        for _ in interior {
                            source.interiorSample(fx: fx, fy: fy, scale: scale, offset: offset, into: output)
                            output += 3
                            fx &+= stepX.value
                            fy &+= stepY.value
                        }
                    }
                }
                for x in (interior.isEmpty ? 0 : interior.upperBound)..<outWidth { store(general(x, rowX: rowX, rowY: rowY)) }
            }
        }
    }
}

/// A coordinate in 32.32 fixed point, for coordinates and steps of magnitude below 2²⁹.
private struct FixedPoint {
    let value: Int64

    init?(_ coordinate: Double) {
        guard coordinate.isFinite, abs(coordinate) < 0x1p29 else { return nil }
        value = Int64(coordinate * 0x1p32)
    }

    /// The columns x in 0..<count with 0 ≤ start + step·x < limit·2³², exactly, in integers.
    static func span(start: FixedPoint, step: FixedPoint, below limit: Int, count: Int) -> Range<Int> {
        let (f0, s, upper) = (start.value, step.value, Int64(limit) << 32)
        guard upper > 0 else { return 0..<0 }
        let low: Int64, high: Int64
        if s == 0 {
            return (0..<upper).contains(f0) ? 0..<count : 0..<0
        } else if s > 0 {
            (low, high) = (ceilingDivide(-f0, s), ceilingDivide(upper - f0, s))
        } else {
            (low, high) = (floorDivide(f0 - upper, -s) + 1, floorDivide(f0, -s) + 1)
        }
        let lower = Int(max(low, 0)), higher = Int(min(high, Int64(count)))
        return lower < higher ? lower..<higher : 0..<0
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && a < 0) ? quotient - 1 : quotient
    }

    private static func ceilingDivide(_ a: Int64, _ b: Int64) -> Int64 { -floorDivide(-a, b) }
}

/// The stored pixels as the warp reads them: RGB offsets resolved once per call.
private struct WarpSource {
    let pixels: UnsafePointer<UInt8>
    let stride: Int
    let step: Int
    let (r, g, b): (Int, Int, Int)
    let maxX: Int
    let maxY: Int

    /// Fixed-point positions shifted by 32 bits must not overflow.
    var allowsFixedPoint: Bool { maxX < 1 << 29 && maxY < 1 << 29 }

    init(image: Image) {
        pixels = UnsafePointer(image.storage.base.assumingMemoryBound(to: UInt8.self))
        stride = image.bytesPerRow
        step = image.pixelFormat.bytesPerPixel
        (r, g, b) = image.pixelFormat.rgbOffsets
        (maxX, maxY) = (image.width - 1, image.height - 1)
    }

    @inline(__always) func rgb(_ x: Int, _ y: Int) -> SIMD3<Float> {
        let p = pixels + y * stride + x * step
        return SIMD3(Float(p[r]), Float(p[g]), Float(p[b]))
    }

    /// The weighted sum of the 2×2 neighbourhood at (x0, y0); at the edge, neighbours outside are clamped
    /// (replicate) or contribute 0.
    @inline(__always) func sample(x0: Int, y0: Int, weights: SIMD4<Float>, replicate: Bool) -> SIMD3<Float> {
        if x0 >= 0, y0 >= 0, x0 < maxX, y0 < maxY {
            return weights[0] * rgb(x0, y0) + weights[1] * rgb(x0 + 1, y0)
                + weights[2] * rgb(x0, y0 + 1) + weights[3] * rgb(x0 + 1, y0 + 1)
        }
        return edge(x0: x0, y0: y0, weights: weights, replicate: replicate)
    }

    /// Writes the mapped sample at a 32.32 fixed-point position whose neighbourhood is known to be inside.
    /// Scalar per channel: cheaper here than packing bytes into SIMD vectors.
    @inline(__always) func interiorSample(fx: Int64, fy: Int64, scale: Float, offset: Float, into output: UnsafeMutablePointer<Float>) {
        let (x0, y0) = (Int(truncatingIfNeeded: fx >> 32), Int(truncatingIfNeeded: fy >> 32))
        let wx = Float(UInt32(truncatingIfNeeded: fx)) * 0x1p-32, wy = Float(UInt32(truncatingIfNeeded: fy)) * 0x1p-32
        let w11 = wx * wy, w10 = wx - w11, w01 = wy - w11, w00 = 1 - wx - w01
        let p = pixels + y0 * stride + x0 * step
        let q = p + stride
        @inline(__always) func channel(_ c: Int) -> Float {
            let top = w00 * Float(p[c]) + w10 * Float(p[step + c])
            return (top + w01 * Float(q[c]) + w11 * Float(q[step + c])) * scale + offset
        }
        output[0] = channel(r)
        output[1] = channel(g)
        output[2] = channel(b)
    }

    func edge(x0: Int, y0: Int, weights: SIMD4<Float>, replicate: Bool) -> SIMD3<Float> {
        var sum = SIMD3<Float>()
        for corner in 0..<4 {
            var (x, y) = (x0 + corner & 1, y0 + corner >> 1)
            if replicate {
                (x, y) = (min(max(x, 0), maxX), min(max(y, 0), maxY))
            } else if x < 0 || y < 0 || x > maxX || y > maxY {
                continue
            }
            sum += weights[corner] * rgb(x, y)
        }
        return sum
    }
}
