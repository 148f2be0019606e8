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
        transform: AffineTransform, valueRange: ClosedRange<Float>, border: WarpBorder = .zero
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
            for y in 0..<outHeight {
                // Along a row the sample point moves by (a, c) per pixel.
                let rowX = transform.b * Double(y) + transform.tx
                let rowY = transform.d * Double(y) + transform.ty
                for x in 0..<outWidth {
                    var sx = rowX + transform.a * Double(x)
                    var sy = rowY + transform.c * Double(x)
                    if replicate {
                        // Clamping the point samples exactly what clamping each neighbour would.
                        sx = sx.isNaN ? 0 : min(max(sx, 0), maxX)
                        sy = sy.isNaN ? 0 : min(max(sy, 0), maxY)
                    }
                    var rgb = SIMD3<Float>()
                    // NaN and far-away coordinates sample the zero border.
                    if sx > -1, sy > -1, sx < maxX + 1, sy < maxY + 1 {
                        // floor(s) as the truncation of s + 1, minus 1: exact here since s > −1, and no libm call.
                        let x0 = Int(sx + 1) - 1, y0 = Int(sy + 1) - 1
                        let fx = Float(sx - Double(x0)), fy = Float(sy - Double(y0))
                        let weights = SIMD4((1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy)
                        rgb = source.sample(x0: x0, y0: y0, weights: weights, replicate: replicate)
                    }
                    rgb = rgb * scale + offset
                    output[0] = rgb.x
                    output[1] = rgb.y
                    output[2] = rgb.z
                    output += 3
                }
            }
        }
    }
}

/// The stored pixels as the warp reads them: RGB offsets resolved once per call.
private struct WarpSource {
    let pixels: UnsafePointer<UInt8>
    let stride: Int
    let step: Int
    let (r, g, b): (Int, Int, Int)
    let maxX: Int
    let maxY: Int

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
