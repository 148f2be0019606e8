import CVisageKernels

/// Elementwise kernels over contiguous float32 buffers of equal length.
///
/// `out` may alias an input (in-place), which the operators use to save arena space. Each
/// function runs with `KernelISA.selected` unless `isa` says otherwise.
package enum Elementwise {
    /// `out[i] = clamp(a[i] + b[i], min, max)`; the clamp fuses a following RELU/RELU6.
    package static func add(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
        count: Int, min: Float = -.infinity, max: Float = .infinity, isa: KernelISA = .selected
    ) {
        precondition(count >= 0)
        visage_f32_vadd(isa.cValue, a, b, out, count, min, max)
    }

    /// `out[i] = clamp(a[i] * b[i], min, max)`.
    package static func multiply(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
        count: Int, min: Float = -.infinity, max: Float = .infinity, isa: KernelISA = .selected
    ) {
        precondition(count >= 0)
        visage_f32_vmul(isa.cValue, a, b, out, count, min, max)
    }

    /// `out[i] = clamp(a[i] - b[i], min, max)`.
    package static func subtract(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
        count: Int, min: Float = -.infinity, max: Float = .infinity, isa: KernelISA = .selected
    ) {
        precondition(count >= 0)
        visage_f32_vsub(isa.cValue, a, b, out, count, min, max)
    }

    /// `out[i] = clamp(x[i], min, max)`: RELU, RELU6, RELU_N1_TO_1.
    package static func clamp(
        _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, count: Int, min: Float, max: Float,
        isa: KernelISA = .selected
    ) {
        precondition(count >= 0)
        visage_f32_vclamp(isa.cValue, x, out, count, min, max)
    }

    /// PReLU with one slope per channel; `count` is a multiple of `channels` (NHWC pixels).
    package static func prelu(
        _ x: UnsafePointer<Float>, slopes: UnsafePointer<Float>, channels: Int,
        _ out: UnsafeMutablePointer<Float>, count: Int, isa: KernelISA = .selected
    ) {
        precondition(channels > 0 && count >= 0 && count % channels == 0, "count \(count) is not whole pixels of \(channels) channels")
        visage_f32_vprelu(isa.cValue, x, slopes, channels, out, count)
    }

    /// `out[i] = 1 / (1 + exp(-x[i]))`.
    package static func logistic(
        _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, count: Int, isa: KernelISA = .selected
    ) {
        precondition(count >= 0)
        visage_f32_vsigmoid(isa.cValue, x, out, count)
    }
}
