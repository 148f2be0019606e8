import CVisageKernels
import Foundation

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
    /// With `roundedToLevels`, each sample is first rounded to a whole level in 0…255 (ties to even), as a
    /// warp into 8-bit pixels stores it (OpenCV's `saturate_cast`), and level `n` becomes
    /// `lower + n / 255 · (upper − lower)`: the input a pipeline that warps 8-bit images and then scales
    /// them would give.
    ///
    /// - Precondition: `tensor.count ≥ width × height × 3`, `width` and `height` positive.
    /// - Complexity: O(width × height), one pass over the tensor; no allocation.
    public func warpAffine(
        into tensor: UnsafeMutableBufferPointer<Float>, width outWidth: Int, height outHeight: Int,
        transform: PixelTransform, valueRange: ClosedRange<Float>, border: WarpBorder = .zero, roundedToLevels: Bool = false
    ) {
        warpAffine(
            into: tensor, width: outWidth, height: outHeight, transform: transform, valueRange: valueRange, border: border,
            roundedToLevels: roundedToLevels, kernel: .selected)
    }

    /// ``warpAffine(into:width:height:transform:valueRange:border:roundedToLevels:)`` with the interior
    /// columns sampled by `kernel`, so tests can hold each SIMD kernel against the Swift run.
    package func warpAffine(
        into tensor: UnsafeMutableBufferPointer<Float>, width outWidth: Int, height outHeight: Int,
        transform: PixelTransform, valueRange: ClosedRange<Float>, border: WarpBorder, roundedToLevels: Bool, kernel: WarpKernel
    ) {
        precondition(outWidth > 0 && outHeight > 0, "warp size \(outWidth)×\(outHeight) must be positive")
        precondition(tensor.count >= outWidth * outHeight * 3, "tensor of \(tensor.count) floats is smaller than \(outWidth)×\(outHeight)×3")
        let mapping = LevelMapping(valueRange: valueRange, rounded: roundedToLevels)
        withExtendedLifetime(storage) {
            let source = WarpSource(image: self, border: border)
            var kernelSource = source.kernelSource(mapping: mapping)
            let stepX = FixedPoint(transform.a), stepY = FixedPoint(transform.c)
            var output = tensor.baseAddress!
            for y in 0..<outHeight {
                // Along a row the sample point moves by (a, c) per pixel.
                let rowX = transform.b * Double(y) + transform.tx
                let rowY = transform.d * Double(y) + transform.ty
                // A row wholly above or below a zero border (a letterbox's bands) is one value.
                let lastY = rowY + transform.c * Double(outWidth - 1)
                if border == .zero, max(rowY, lastY) <= -1 || min(rowY, lastY) >= Double(source.maxY) + 1 {
                    let value = mapping(.zero)
                    for _ in 0..<outWidth {
                        WarpSource.store(value, output)
                        output += 3
                    }
                    continue
                }
                // The columns whose neighbourhood lies inside the image run in 32.32 fixed point: integer
                // steps, no conversions or bounds checks (position error at most width × 2⁻³² pixel).
                var interior = 0..<0
                if let stepX, let stepY, let startX = FixedPoint(rowX), let startY = FixedPoint(rowY), source.allowsFixedPoint {
                    interior = FixedPoint.span(start: startX, step: stepX, below: source.maxX, count: outWidth)
                        .clamped(to: FixedPoint.span(start: startY, step: stepY, below: source.maxY, count: outWidth))
                    if !interior.isEmpty {
                        for x in 0..<interior.lowerBound {
                            source.general(x, rowX: rowX, rowY: rowY, transform: transform, mapping: mapping, into: output)
                            output += 3
                        }
                        let fx = startX.value &+ stepX.value &* Int64(interior.lowerBound)
                        let fy = startY.value &+ stepY.value &* Int64(interior.lowerBound)
                        let sampled = kernel.isa.map {
                            visage_u8_warp_interior($0, &kernelSource, fx, fy, stepX.value, stepY.value, interior.count, output) != 0
                        } ?? false
                        if !sampled {
                            source.interiorRun(
                                count: interior.count, fx: fx, fy: fy, stepX: stepX.value, stepY: stepY.value, mapping: mapping,
                                into: output)
                        }
                        output += 3 * interior.count
                    }
                }
                for x in (interior.isEmpty ? 0 : interior.upperBound)..<outWidth {
                    source.general(x, rowX: rowX, rowY: rowY, transform: transform, mapping: mapping, into: output)
                    output += 3
                }
            }
        }
    }
}

/// What samples the warp's interior columns: the Swift run, which is the reference, or a
/// CVisageKernels set's SIMD kernel (bit-identical to it; sets without one fall back to Swift).
package struct WarpKernel: Sendable, CustomStringConvertible {
    private let isaValue: UInt32?

    var isa: visage_isa? { isaValue.map { visage_isa(rawValue: $0) } }

    /// The Swift run alone.
    package static let swift = WarpKernel(isaValue: nil)

    /// The set every warp uses: the best this CPU runs, unless `VISAGE_KERNELS` names another.
    package static let selected = WarpKernel(
        isaValue: visage_isa_select(ProcessInfo.processInfo.environment["VISAGE_KERNELS"]).rawValue)

    /// The available sets that have a warp kernel.
    package static var simd: [WarpKernel] {
        (0..<UInt32(VISAGE_ISA_COUNT)).map { visage_isa(rawValue: $0) }
            .filter { visage_isa_is_available($0) != 0 && visage_u8_warp_supported($0) != 0 }
            .map { WarpKernel(isaValue: $0.rawValue) }
    }

    /// The run every fixed-point warp uses (``Image/warpAffineFixedPoint(into:width:height:transform:valueRange:border:)``):
    /// ``selected``'s C run, or the Swift run when `VISAGE_FIXED_POINT_WARP=swift` is in the environment
    /// (to time one against the other in the same binary, or to rule the C run out).
    package static let fixedPointSelected: WarpKernel =
        ProcessInfo.processInfo.environment["VISAGE_FIXED_POINT_WARP"] == "swift" ? .swift : .selected

    /// Every set this CPU runs, portable first: each has a fixed-point warp run
    /// (``Image/warpAffineFixedPoint(into:width:height:transform:valueRange:border:kernel:)``).
    package static var available: [WarpKernel] {
        (0..<UInt32(VISAGE_ISA_COUNT)).map { visage_isa(rawValue: $0) }
            .filter { visage_isa_is_available($0) != 0 }
            .map { WarpKernel(isaValue: $0.rawValue) }
    }

    package var description: String { isa.map { String(cString: visage_isa_name($0)) } ?? "swift" }
}

/// 0…255 samples onto the tensor's value range, rounded to whole levels first or not.
private struct LevelMapping {
    let scale: Float
    let offset: Float
    let rounded: Bool
    let span: Float

    init(valueRange: ClosedRange<Float>, rounded: Bool) {
        span = valueRange.upperBound - valueRange.lowerBound
        scale = span / 255
        offset = valueRange.lowerBound
        self.rounded = rounded
    }

    @inline(__always) func callAsFunction(_ value: SIMD4<Float>) -> SIMD4<Float> {
        guard rounded else { return value * scale + offset }
        // Adding and removing 2²³ rounds a value in 0…2²² to an integer, ties to even, in two vector
        // instructions where `rounded(.toNearestOrEven)` is a libm call per value without SSE4.1. Samples
        // are weighted means of 0…255, so no clamping is needed.
        let level = (value + 0x1p23) - 0x1p23
        return level / 255 * span + offset
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

/// The stored pixels as the warp reads them: layout resolved once per call.
private struct WarpSource {
    let pixels: UnsafePointer<UInt8>
    let stride: Int
    let step: Int
    let (r, g, b): (Int, Int, Int)
    let maxX: Int
    let maxY: Int
    let replicate: Bool

    /// Fixed-point positions shifted by 32 bits must not overflow.
    var allowsFixedPoint: Bool { maxX < 1 << 29 && maxY < 1 << 29 }

    init(image: Image, border: WarpBorder) {
        pixels = UnsafePointer(image.storage.base.assumingMemoryBound(to: UInt8.self))
        stride = image.bytesPerRow
        step = image.pixelFormat.bytesPerPixel
        (r, g, b) = image.pixelFormat.rgbOffsets
        (maxX, maxY) = (image.width - 1, image.height - 1)
        replicate = border == .replicate
    }

    /// The layout and `mapping` as the C kernels read them.
    func kernelSource(mapping: LevelMapping) -> visage_u8_warp_source {
        visage_u8_warp_source(
            pixels: pixels, stride: stride, rows: maxY + 1, bytes_per_pixel: step, red: r, green: g, blue: b,
            scale: mapping.scale, offset: mapping.offset, span: mapping.span, rounded: mapping.rounded ? 1 : 0)
    }

    @inline(__always) func rgb(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let p = pixels + y * stride + x * step
        return SIMD4(Float(p[r]), Float(p[g]), Float(p[b]), 0)
    }

    @inline(__always) static func store(_ value: SIMD4<Float>, _ output: UnsafeMutablePointer<Float>) {
        output[0] = value.x
        output[1] = value.y
        output[2] = value.z
    }

    /// Writes the sample at output column `x` of a row, in Double coordinates, with any border.
    func general(
        _ x: Int, rowX: Double, rowY: Double, transform: PixelTransform, mapping: LevelMapping, into output: UnsafeMutablePointer<Float>
    ) {
        var sx = rowX + transform.a * Double(x)
        var sy = rowY + transform.c * Double(x)
        if replicate {
            // Clamping the point samples exactly what clamping each neighbour would.
            sx = sx.isNaN ? 0 : min(max(sx, 0), Double(maxX))
            sy = sy.isNaN ? 0 : min(max(sy, 0), Double(maxY))
        }
        // NaN and far-away coordinates sample the zero border.
        guard sx > -1, sy > -1, sx < Double(maxX) + 1, sy < Double(maxY) + 1 else {
            Self.store(mapping(.zero), output)
            return
        }
        // floor(s) as the truncation of s + 1, minus 1: exact here since s > −1, and no libm call.
        let x0 = Int(sx + 1) - 1, y0 = Int(sy + 1) - 1
        let fx = Float(sx - Double(x0)), fy = Float(sy - Double(y0))
        let weights = SIMD4((1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy)
        var sum = SIMD4<Float>()
        if x0 >= 0, y0 >= 0, x0 < maxX, y0 < maxY {
            sum = weights[0] * rgb(x0, y0) + weights[1] * rgb(x0 + 1, y0) + weights[2] * rgb(x0, y0 + 1) + weights[3] * rgb(x0 + 1, y0 + 1)
        } else {
            // At the edge, neighbours outside are clamped (replicate) or contribute 0.
            for corner in 0..<4 {
                var (x, y) = (x0 + corner & 1, y0 + corner >> 1)
                if replicate {
                    (x, y) = (min(max(x, 0), maxX), min(max(y, 0), maxY))
                } else if x < 0 || y < 0 || x > maxX || y > maxY {
                    continue
                }
                sum += weights[corner] * rgb(x, y)
            }
        }
        Self.store(mapping(sum), output)
    }

    /// Writes `count` samples from the 32.32 fixed-point position (`fx`, `fy`) on, stepping by
    /// (`stepX`, `stepY`), all with their 2×2 neighbourhood inside the image.
    ///
    /// Four pixels at a time, one vector lane each: the bilinear weights and each channel's sum are
    /// vector operations, the same per lane as one pixel's scalar ones; only the 16 pixel reads are
    /// scalar.
    func interiorRun(
        count: Int, fx: Int64, fy: Int64, stepX: Int64, stepY: Int64, mapping: LevelMapping, into output: UnsafeMutablePointer<Float>
    ) {
        var (fx, fy, output) = (fx, fy, output)
        var done = 0
        if step > 1 {
            // A pixel's first four bytes hold R, G and B at these bit offsets. A 3-byte pixel's right
            // neighbour is read from one byte earlier, so the read never passes the row's last pixel.
            let shifts = SIMD4<UInt32>(UInt32(8 * r), UInt32(8 * g), UInt32(8 * b), 0)
            let rightBack = step == 3 ? 1 : 0
            let rightShifts = shifts &+ UInt32(8 * rightBack)
            while done + 4 <= count {
                var (xs, ys) = (SIMD4<Int64>(), SIMD4<Int64>())
                for lane in 0..<4 {
                    (xs[lane], ys[lane]) = (fx, fy)
                    fx &+= stepX
                    fy &+= stepY
                }
                writeFour(xs: xs, ys: ys, shifts: shifts, rightBack: rightBack, rightShifts: rightShifts, mapping: mapping, into: output)
                output += 12
                done += 4
            }
        }
        // The rest, and gray images, one pixel at a time.
        while done < count {
            let (x0, y0) = (Int(truncatingIfNeeded: fx >> 32), Int(truncatingIfNeeded: fy >> 32))
            let wx = Float(UInt32(truncatingIfNeeded: fx)) * 0x1p-32, wy = Float(UInt32(truncatingIfNeeded: fy)) * 0x1p-32
            let w11 = wx * wy, w10 = wx - w11, w01 = wy - w11, w00 = 1 - wx - w01
            let p = pixels + y0 * stride + x0 * step
            let q = p + stride
            let top = w00 * rgb(p) + w10 * rgb(p + step)
            Self.store(mapping(top + w01 * rgb(q) + w11 * rgb(q + step)), output)
            output += 3
            fx &+= stepX
            fy &+= stepY
            done += 1
        }
    }

    @inline(__always) private func rgb(_ p: UnsafePointer<UInt8>) -> SIMD4<Float> {
        SIMD4(Float(p[r]), Float(p[g]), Float(p[b]), 0)
    }

    /// Four interior samples at the fixed-point positions (`xs`, `ys`), interleaved into 12 floats.
    @inline(__always) private func writeFour(
        xs: SIMD4<Int64>, ys: SIMD4<Int64>, shifts: SIMD4<UInt32>, rightBack: Int, rightShifts: SIMD4<UInt32>, mapping: LevelMapping,
        into output: UnsafeMutablePointer<Float>
    ) {
        var (a, b, c, d) = (SIMD4<UInt32>(), SIMD4<UInt32>(), SIMD4<UInt32>(), SIMD4<UInt32>())
        var (wx, wy) = (SIMD4<Float>(), SIMD4<Float>())
        for lane in 0..<4 {
            let (x0, y0) = (Int(truncatingIfNeeded: xs[lane] >> 32), Int(truncatingIfNeeded: ys[lane] >> 32))
            wx[lane] = Float(UInt32(truncatingIfNeeded: xs[lane]))
            wy[lane] = Float(UInt32(truncatingIfNeeded: ys[lane]))
            // Wrapping arithmetic: the interior span already bounds the offsets.
            let p = UnsafeRawPointer(pixels + (y0 &* stride &+ x0 &* step)), q = p + stride
            a[lane] = p.loadUnaligned(as: UInt32.self)
            b[lane] = (p + (step &- rightBack)).loadUnaligned(as: UInt32.self)
            c[lane] = q.loadUnaligned(as: UInt32.self)
            d[lane] = (q + (step &- rightBack)).loadUnaligned(as: UInt32.self)
        }
        wx *= 0x1p-32
        wy *= 0x1p-32
        let w11 = wx * wy, w10 = wx - w11, w01 = wy - w11, w00 = 1 - wx - w01
        @inline(__always) func channel(_ shift: UInt32, _ rightShift: UInt32) -> SIMD4<Float> {
            @inline(__always) func level(_ pixels: SIMD4<UInt32>, _ shift: UInt32) -> SIMD4<Float> {
                SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: (pixels &>> shift) & 0xFF))
            }
            let top = w00 * level(a, shift) + w10 * level(b, rightShift)
            return mapping(top + w01 * level(c, shift) + w11 * level(d, rightShift))
        }
        let red = channel(shifts[0], rightShifts[0]), green = channel(shifts[1], rightShifts[1])
        let blue = channel(shifts[2], rightShifts[2])
        for lane in 0..<4 {
            output[3 * lane] = red[lane]
            output[3 * lane + 1] = green[lane]
            output[3 * lane + 2] = blue[lane]
        }
    }
}
