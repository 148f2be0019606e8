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
        let (r, g, b) = pixelFormat.rgbOffsets
        let step = pixelFormat.bytesPerPixel
        let stride = bytesPerRow
        let (maxX, maxY) = (width - 1, height - 1)
        let replicate = border == .replicate
        withExtendedLifetime(storage) {
            let pixels = UnsafePointer<UInt8>(storage.base.assumingMemoryBound(to: UInt8.self))
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
                        sx = sx.isNaN ? 0 : min(max(sx, 0), Double(maxX))
                        sy = sy.isNaN ? 0 : min(max(sy, 0), Double(maxY))
                    }
                    var red: Float = 0, green: Float = 0, blue: Float = 0
                    // NaN and far-away coordinates sample the zero border.
                    if sx > -1, sy > -1, sx < Double(width), sy < Double(height) {
                        let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
                        let fx = Float(sx - Double(x0)), fy = Float(sy - Double(y0))
                        let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
                        if x0 >= 0, y0 >= 0, x0 < maxX, y0 < maxY {
                            let p = pixels + y0 * stride + x0 * step
                            let q = p + stride
                            red = w00 * Float(p[r]) + w10 * Float(p[step + r]) + w01 * Float(q[r]) + w11 * Float(q[step + r])
                            green = w00 * Float(p[g]) + w10 * Float(p[step + g]) + w01 * Float(q[g]) + w11 * Float(q[step + g])
                            blue = w00 * Float(p[b]) + w10 * Float(p[step + b]) + w01 * Float(q[b]) + w11 * Float(q[step + b])
                        } else {
                            // At the edge: neighbours outside are clamped (replicate) or contribute 0.
                            func add(_ px: Int, _ py: Int, _ weight: Float) {
                                var (px, py) = (px, py)
                                if replicate {
                                    px = min(max(px, 0), maxX)
                                    py = min(max(py, 0), maxY)
                                } else if px < 0 || py < 0 || px > maxX || py > maxY {
                                    return
                                }
                                let p = pixels + py * stride + px * step
                                red += weight * Float(p[r])
                                green += weight * Float(p[g])
                                blue += weight * Float(p[b])
                            }
                            add(x0, y0, w00)
                            add(x0 + 1, y0, w10)
                            add(x0, y0 + 1, w01)
                            add(x0 + 1, y0 + 1, w11)
                        }
                    }
                    output[0] = red * scale + offset
                    output[1] = green * scale + offset
                    output[2] = blue * scale + offset
                    output += 3
                }
            }
        }
    }
}
