/// Elementwise kernels over contiguous float32 buffers of equal length.
///
/// `out` may alias an input (in-place), which the operators use to save arena space.
package enum Elementwise {
    /// `out[i] = clamp(a[i] + b[i], min, max)`; the clamp fuses a following RELU/RELU6.
    package static func add(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
        count: Int, min: Float = -.infinity, max: Float = .infinity
    ) {
        ReferenceKernels.add(a, b, out, count: count, min: min, max: max)
    }

    /// `out[i] = clamp(a[i] * b[i], min, max)`.
    package static func multiply(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
        count: Int, min: Float = -.infinity, max: Float = .infinity
    ) {
        ReferenceKernels.multiply(a, b, out, count: count, min: min, max: max)
    }

    /// `out[i] = clamp(a[i] - b[i], min, max)`.
    package static func subtract(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
        count: Int, min: Float = -.infinity, max: Float = .infinity
    ) {
        ReferenceKernels.subtract(a, b, out, count: count, min: min, max: max)
    }

    /// `out[i] = clamp(x[i], min, max)`: RELU, RELU6, RELU_N1_TO_1.
    package static func clamp(
        _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, count: Int, min: Float, max: Float
    ) {
        ReferenceKernels.clamp(x, out, count: count, min: min, max: max)
    }

    /// PReLU with one slope per channel; `count` is a multiple of `channels` (NHWC pixels).
    package static func prelu(
        _ x: UnsafePointer<Float>, slopes: UnsafePointer<Float>, channels: Int,
        _ out: UnsafeMutablePointer<Float>, count: Int
    ) {
        ReferenceKernels.prelu(x, slopes: slopes, channels: channels, out, count: count)
    }

    /// `out[i] = 1 / (1 + exp(-x[i]))`.
    package static func logistic(_ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, count: Int) {
        ReferenceKernels.logistic(x, out, count: count)
    }
}
