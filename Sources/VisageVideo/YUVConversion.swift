/// BT.601 YUV → RGB in 8.8 fixed point, the matrix of SD video and of y4m files.
///
/// Video range (Y 16…235, chroma 16…240): R = 1.164(Y−16) + 1.596(V−128),
/// G = 1.164(Y−16) − 0.392(U−128) − 0.813(V−128), B = 1.164(Y−16) + 2.017(U−128).
/// Full range: R = Y + 1.402(V−128), G = Y − 0.344(U−128) − 0.714(V−128), B = Y + 1.772(U−128).
package struct YUVConversion: Sendable {
    private let luma: Int32, lumaOffset: Int32, redV: Int32, greenU: Int32, greenV: Int32, blueU: Int32

    package init(fullRange: Bool) {
        (luma, lumaOffset, redV, greenU, greenV, blueU) = fullRange
            ? (256, 0, 359, 88, 183, 454)
            : (298, 16, 409, 100, 208, 516)
    }

    /// Converts one pixel.
    @inline(__always)
    package func rgb(y: UInt8, u: UInt8, v: UInt8) -> (UInt8, UInt8, UInt8) {
        // Wrapping arithmetic: the ranges cannot overflow, and unchecked operations let the loop vectorise.
        let c = luma &* (Int32(y) &- lumaOffset) &+ 128, d = Int32(u) &- 128, e = Int32(v) &- 128
        return (Self.clamped((c &+ redV &* e) &>> 8), Self.clamped((c &- greenU &* d &- greenV &* e) &>> 8), Self.clamped((c &+ blueU &* d) &>> 8))
    }

    @inline(__always)
    private static func clamped(_ value: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(max(value, 0), 255)) }

    /// Converts planar YUV to interleaved RGB8: `planes` holds Y (`width × height`), then U and V, each
    /// `chromaWidth × chromaHeight` and sampled every `xShift`/`yShift` power of two (none for mono).
    package func convert(
        planes: UnsafeRawBufferPointer, width: Int, height: Int, chromaWidth: Int, xShift: Int, yShift: Int,
        chromaHeight: Int, into destination: UnsafeMutableRawBufferPointer
    ) {
        precondition(planes.count >= width * height + 2 * chromaWidth * chromaHeight && destination.count >= width * height * 3)
        let base = planes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let out = destination.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let chromaCount = chromaWidth * chromaHeight
        // Mono reads a row of neutral chroma instead of branching per pixel.
        let neutral = [UInt8](repeating: 128, count: chromaCount == 0 ? width : 0)
        neutral.withUnsafeBufferPointer { neutral in
            for row in 0..<height {
                let luma = base + row * width
                let (u, v): (UnsafePointer<UInt8>, UnsafePointer<UInt8>) = chromaCount == 0
                    ? (neutral.baseAddress!, neutral.baseAddress!)
                    : (base + width * height + (row >> yShift) * chromaWidth, base + width * height + chromaCount + (row >> yShift) * chromaWidth)
                var pixel = out + row * width * 3
                let shift = chromaCount == 0 ? 0 : xShift
                for column in 0..<width {
                    let c = column &>> shift
                    let (r, g, b) = rgb(y: luma[column], u: u[c], v: v[c])
                    pixel[0] = r
                    pixel[1] = g
                    pixel[2] = b
                    pixel += 3
                }
            }
        }
    }
}
