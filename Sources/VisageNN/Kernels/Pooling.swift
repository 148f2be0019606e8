import CVisageKernels

/// Pooling kernels over NHWC float32 tensors with batch 1.
package enum Pooling {
    /// MAX_POOL_2D of output rows `outputRows`: the largest input value under each window, then
    /// clamped to `min...max` (the fused activation).
    ///
    /// Taps outside the input are ignored, as TFLite does with SAME padding, and so are NaN taps (TFLite's
    /// `std::max` from the lowest float passes them over); a window with nothing left gives `-infinity`
    /// before the clamp. `shape.inputChannels` must equal
    /// `shape.outputChannels`; the shape's kernel, stride and padding describe the window.
    package static func maxPool(
        shape: ConvolutionShape, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        outputRows: Range<Int>, min: Float = -.infinity, max: Float = .infinity, isa: KernelISA = .selected
    ) {
        precondition(shape.isValid && shape.inputChannels == shape.outputChannels, "invalid pooling shape \(shape)")
        precondition(outputRows.lowerBound >= 0 && outputRows.upperBound <= shape.outputHeight)
        guard !outputRows.isEmpty else { return }
        var geometry = shape.geometry
        visage_f32_maxpool_run(isa.cValue, &geometry, input, output, outputRows.lowerBound, outputRows.upperBound, min, max)
    }
}
