import CVisageKernels

/// A DEPTHWISE_CONV_2D (depth multiplier 1, any kernel size) with its weights packed once.
///
/// Weights are packed in groups of 16 channels with the bias in front; 3×3 kernels run an
/// unrolled 9-tap microkernel, other sizes a general one. `shape.inputChannels` must equal
/// `shape.outputChannels`. `run` is thread-safe and writes only the output rows it is given.
package final class PackedDepthwiseConvolution: Sendable {
    package let shape: ConvolutionShape
    /// The kernel set this convolution runs with.
    package let isa: KernelISA
    private let weights: PackedWeights

    package var epilogue: ConvolutionEpilogue { weights.epilogue }

    /// - Parameters:
    ///   - weightsHWC: `kernelHeight × kernelWidth × channels` values (TFLite's 1×H×W×C).
    ///   - bias: `channels` values, or nil for none.
    ///   - epilogue: clamp and PReLU (`channels` slopes) fused into the stores.
    ///   - isa: the kernel set; tests pass each available one.
    package init(
        shape: ConvolutionShape, weightsHWC: UnsafeBufferPointer<Float>, bias: UnsafeBufferPointer<Float>?,
        epilogue: ConvolutionEpilogue, isa: KernelISA = .selected
    ) {
        precondition(shape.isValid && shape.inputChannels == shape.outputChannels, "invalid depthwise shape \(shape)")
        precondition(
            weightsHWC.count == shape.kernelHeight * shape.kernelWidth * shape.outputChannels,
            "weights count \(weightsHWC.count) does not match \(shape)")
        self.shape = shape
        self.isa = isa
        var geometry = shape.geometry
        weights = PackedWeights(
            count: visage_f32_dwconv_packed_count(&geometry), zeroCount: shape.inputWidth * shape.outputChannels,
            channels: shape.outputChannels, bias: bias, epilogue: epilogue
        ) { visage_f32_dwconv_pack(&geometry, weightsHWC.baseAddress, bias?.baseAddress, $0) }
    }

    /// Computes output rows `outputRows` (each `outputWidth × channels` values, NHWC) from the
    /// whole input tensor.
    /// - Parameter uniformInput: nil, or two values per input row (``UniformRows``' layout); a row
    ///   known to be one pixel repeated (`0, inputWidth`) lets a 3×3 kernel compute the output rows
    ///   that read only such rows from a few pixels and copy them, with the same values; at stride 1,
    ///   so does a run of part of the row shared by an output row's three input rows.
    package func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, outputRows: Range<Int>,
        uniformInput: UnsafePointer<Int32>? = nil
    ) {
        precondition(outputRows.lowerBound >= 0 && outputRows.upperBound <= shape.outputHeight)
        guard !outputRows.isEmpty else { return }
        var geometry = shape.geometry
        weights.withOperands { packed, zeros, epilogue in
            if let uniformInput {
                visage_f32_dwconv_run_uniform(
                    isa.cValue, &geometry, packed, zeros, epilogue, input, output, outputRows.lowerBound, outputRows.upperBound,
                    uniformInput)
            } else {
                visage_f32_dwconv_run(
                    isa.cValue, &geometry, packed, zeros, epilogue, input, output, outputRows.lowerBound, outputRows.upperBound)
            }
        }
    }
}
