import Foundation

/// The kernels' operations as plain Swift loops: slow, obvious, and what the tests compare the
/// SIMD kernels against. Same arguments and semantics as the fast versions.
package enum ReferenceKernels {
    /// Direct convolution. Weights are OHWI (TFLite's CONV_2D layout), bias one per output
    /// channel; `residual` (output pixels of `residualChannels`, zero past them) is added
    /// before the epilogue.
    package static func convolution(
        shape: ConvolutionShape, input: UnsafePointer<Float>, weightsOHWI: UnsafeBufferPointer<Float>,
        bias: UnsafeBufferPointer<Float>?, epilogue: ConvolutionEpilogue, residual: UnsafePointer<Float>? = nil,
        residualChannels: Int? = nil, output: UnsafeMutablePointer<Float>, outputRows: Range<Int>
    ) {
        let residualChannels = residualChannels ?? shape.outputChannels
        let s = shape
        for oy in outputRows {
            for ox in 0..<s.outputWidth {
                for oc in 0..<s.outputChannels {
                    var sum: Float = bias?[oc] ?? 0
                    forEachTap(s, oy, ox) { pixel, tap in
                        let values = pixel * s.inputChannels
                        let weights = (oc * s.kernelHeight * s.kernelWidth + tap) * s.inputChannels
                        for ic in 0..<s.inputChannels {
                            sum += input[values + ic] * weightsOHWI[weights + ic]
                        }
                    }
                    let pixel = oy * s.outputWidth + ox
                    if let residual, oc < residualChannels { sum += residual[pixel * residualChannels + oc] }
                    output[pixel * s.outputChannels + oc] = epilogue.apply(sum, channel: oc)
                }
            }
        }
    }

    /// Depthwise convolution with depth multiplier 1. Weights are HWC (TFLite's 1×H×W×C), so
    /// `shape.inputChannels == shape.outputChannels`.
    package static func depthwiseConvolution(
        shape: ConvolutionShape, input: UnsafePointer<Float>, weightsHWC: UnsafeBufferPointer<Float>,
        bias: UnsafeBufferPointer<Float>?, epilogue: ConvolutionEpilogue,
        output: UnsafeMutablePointer<Float>, outputRows: Range<Int>
    ) {
        let s = shape
        let channels = s.outputChannels
        for oy in outputRows {
            for ox in 0..<s.outputWidth {
                for c in 0..<channels {
                    var sum: Float = bias?[c] ?? 0
                    forEachTap(s, oy, ox) { pixel, tap in
                        sum += input[pixel * channels + c] * weightsHWC[tap * channels + c]
                    }
                    output[(oy * s.outputWidth + ox) * channels + c] = epilogue.apply(sum, channel: c)
                }
            }
        }
    }

    /// MAX_POOL_2D: the largest input under each window (taps outside and NaN taps ignored,
    /// -infinity when none is left), clamped.
    package static func maxPool(
        shape: ConvolutionShape, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        outputRows: Range<Int>, min: Float = -.infinity, max: Float = .infinity
    ) {
        let s = shape
        let channels = s.outputChannels
        for oy in outputRows {
            for ox in 0..<s.outputWidth {
                for c in 0..<channels {
                    var largest = -Float.infinity
                    forEachTap(s, oy, ox) { pixel, _ in largest = Swift.max(largest, input[pixel * channels + c]) }
                    output[(oy * s.outputWidth + ox) * channels + c] = Swift.min(Swift.max(largest, min), max)
                }
            }
        }
    }

    /// Calls `body` with the input pixel (`iy × inputWidth + ix`) and the kernel tap (`ky × kernelWidth + kx`)
    /// of each window position of output pixel (`oy`, `ox`) inside the input, row by row; padding is skipped.
    private static func forEachTap(_ s: ConvolutionShape, _ oy: Int, _ ox: Int, _ body: (_ pixel: Int, _ tap: Int) -> Void) {
        for ky in 0..<s.kernelHeight {
            let iy = oy * s.strideY - s.padTop + ky
            guard iy >= 0, iy < s.inputHeight else { continue }
            for kx in 0..<s.kernelWidth {
                let ix = ox * s.strideX - s.padLeft + kx
                guard ix >= 0, ix < s.inputWidth else { continue }
                body(iy * s.inputWidth + ix, ky * s.kernelWidth + kx)
            }
        }
    }

    package static func add(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
        count: Int, min: Float = -.infinity, max: Float = .infinity
    ) {
        for i in 0..<count { out[i] = Swift.min(Swift.max(a[i] + b[i], min), max) }
    }

    package static func multiply(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
        count: Int, min: Float = -.infinity, max: Float = .infinity
    ) {
        for i in 0..<count { out[i] = Swift.min(Swift.max(a[i] * b[i], min), max) }
    }

    package static func subtract(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
        count: Int, min: Float = -.infinity, max: Float = .infinity
    ) {
        for i in 0..<count { out[i] = Swift.min(Swift.max(a[i] - b[i], min), max) }
    }

    package static func clamp(
        _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, count: Int, min: Float, max: Float
    ) {
        for i in 0..<count { out[i] = Swift.min(Swift.max(x[i], min), max) }
    }

    /// PReLU over `count` values laid out as `count / channels` pixels of `channels` values each.
    package static func prelu(
        _ x: UnsafePointer<Float>, slopes: UnsafePointer<Float>, channels: Int,
        _ out: UnsafeMutablePointer<Float>, count: Int
    ) {
        for i in 0..<count {
            let v = x[i]
            out[i] = v < 0 ? v * slopes[i % channels] : v
        }
    }

    package static func logistic(_ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { out[i] = 1 / (1 + exp(-x[i])) }
    }
}
