import VisageImage

/// The plain definition of `Image.warpAffine`, in Double, one pixel and one channel at a time:
/// what the fast path is tested against.
func referenceWarp(
    _ image: Image, width: Int, height: Int, transform: PixelTransform, valueRange: ClosedRange<Float>, border: WarpBorder
) -> [Float] {
    func rgb(_ x: Int, _ y: Int) -> [Double] {
        var (x, y) = (x, y)
        if border == .replicate {
            x = min(max(x, 0), image.width - 1)
            y = min(max(y, 0), image.height - 1)
        } else if x < 0 || y < 0 || x >= image.width || y >= image.height {
            return [0, 0, 0]
        }
        let pixel = image.pixel(x: x, y: y).map(Double.init)
        switch image.pixelFormat {
        case .gray8: return [pixel[0], pixel[0], pixel[0]]
        case .rgb8, .rgba8: return Array(pixel[0..<3])
        case .bgra8: return [pixel[2], pixel[1], pixel[0]]
        }
    }
    var out: [Float] = []
    let low = Double(valueRange.lowerBound), span = Double(valueRange.upperBound - valueRange.lowerBound)
    for y in 0..<height {
        for x in 0..<width {
            let (sx, sy) = transform.apply(x: Double(x), y: Double(y))
            let (x0, y0) = (Int(sx.rounded(.down)), Int(sy.rounded(.down)))
            let (fx, fy) = (sx - Double(x0), sy - Double(y0))
            let (p00, p10, p01, p11) = (rgb(x0, y0), rgb(x0 + 1, y0), rgb(x0, y0 + 1), rgb(x0 + 1, y0 + 1))
            for channel in 0..<3 {
                let value = (1 - fx) * (1 - fy) * p00[channel] + fx * (1 - fy) * p10[channel]
                    + (1 - fx) * fy * p01[channel] + fx * fy * p11[channel]
                out.append(Float(low + value * span / 255))
            }
        }
    }
    return out
}

/// A deterministic generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A random image whose rows carry `padding` bytes past their pixels (5 by default, so stride handling is
/// exercised too; 0 puts the last pixel at the very end of the buffer).
func randomImage(width: Int, height: Int, format: PixelFormat, padding: Int = 5, using generator: inout SeededGenerator) throws -> Image {
    let stride = width * format.bytesPerPixel + padding
    let pixels = (0..<(stride * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return try Image(width: width, height: height, pixelFormat: format, pixels: pixels, bytesPerRow: stride)
}
