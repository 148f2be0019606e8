import CVisageKernels

/// A CONV_2D with its weights packed once, run many times.
///
/// Build one per convolution at model load: the weights are rearranged into 16-output-channel
/// panels with the bias in front, the layout the register-blocked microkernels stream through.
/// Every kernel size and stride goes through the same implicit-GEMM kernel; a 1×1 convolution
/// is a plain GEMM. `run` is thread-safe and writes only the output rows it is given, so
/// callers can split a layer across threads by rows.
///
/// - Complexity: `shape.multiplyAccumulates` multiply-adds per full run: 25–38 GMAC/s on one
///   AVX2 core for the models' 1×1 layers in release builds (`visage kernel-benchmark`), far
///   less in debug builds, where C is compiled at -O0.
package final class PackedConvolution: Sendable {
    package let shape: ConvolutionShape
    /// The kernel set this convolution runs with.
    package let isa: KernelISA
    private let weights: PackedWeights

    package var epilogue: ConvolutionEpilogue { weights.epilogue }

    /// - Parameters:
    ///   - weightsOHWI: `outputChannels × kernelHeight × kernelWidth × inputChannels` values.
    ///   - bias: `outputChannels` values, or nil for none.
    ///   - epilogue: clamp and PReLU (`outputChannels` slopes) fused into the stores.
    ///   - isa: the kernel set; tests pass each available one.
    package init(
        shape: ConvolutionShape, weightsOHWI: UnsafeBufferPointer<Float>, bias: UnsafeBufferPointer<Float>?,
        epilogue: ConvolutionEpilogue, isa: KernelISA = .selected
    ) {
        precondition(shape.isValid, "invalid convolution shape \(shape)")
        precondition(
            weightsOHWI.count == shape.outputChannels * shape.kernelHeight * shape.kernelWidth * shape.inputChannels,
            "weights count \(weightsOHWI.count) does not match \(shape)")
        self.shape = shape
        self.isa = isa
        var geometry = shape.geometry
        weights = PackedWeights(
            count: visage_f32_conv_packed_count(&geometry), zeroCount: shape.kernelWidth * shape.inputChannels,
            channels: shape.outputChannels, bias: bias, epilogue: epilogue
        ) { visage_f32_conv_pack(&geometry, weightsOHWI.baseAddress, bias?.baseAddress, $0) }
    }

    /// Computes output rows `outputRows` (each `outputWidth × outputChannels` values, NHWC) from
    /// the whole input tensor (`inputHeight × inputWidth × inputChannels` values).
    ///
    /// - Parameters:
    ///   - residual: a tensor added after the bias and before the epilogue, or nil. It fuses a
    ///     following ADD into the convolution (the ADD's activation and a PRELU after it become
    ///     the epilogue) when the convolution itself has no activation. Shaped like the output
    ///     but with `residualChannels` channels; the channels past those add zero, which also
    ///     fuses a PAD of the skip tensor's channel axis at the end. It may be `output` itself
    ///     when the channel counts agree; `input` must not overlap `output`.
    ///   - residualChannels: channels per residual pixel, 1...outputChannels; nil means
    ///     `outputChannels`.
    ///   - outputChannels: the channels of those rows to write, starting at a multiple of
    ///     ``panelWidth``; nil means all. Threads may share a layer by rows, by channels or both:
    ///     the values do not depend on the split.
    ///   - uniformColumns: nil, or two values per output row (``UniformRows``' layout): a run of
    ///     columns `lo..<hi` whose pixels the caller knows come out equal, bit for bit; only pixel
    ///     `lo` of each run of two or more is computed, then copied over the rest.
    package func run(
        input: UnsafePointer<Float>, residual: UnsafePointer<Float>? = nil, residualChannels: Int? = nil,
        output: UnsafeMutablePointer<Float>, outputRows: Range<Int>, outputChannels: Range<Int>? = nil,
        uniformColumns: UnsafePointer<Int32>? = nil
    ) {
        precondition(outputRows.lowerBound >= 0 && outputRows.upperBound <= shape.outputHeight)
        let channels = outputChannels ?? 0 ..< shape.outputChannels
        precondition(
            channels.lowerBound >= 0 && channels.lowerBound % Self.panelWidth == 0 && channels.upperBound <= shape.outputChannels,
            "output channels \(channels) must start at a multiple of \(Self.panelWidth) and end by \(shape.outputChannels)")
        let residualChannels = residualChannels ?? shape.outputChannels
        precondition((1...shape.outputChannels).contains(residualChannels), "residual channels \(residualChannels) out of 1...\(shape.outputChannels)")
        guard !outputRows.isEmpty, !channels.isEmpty else { return }
        var geometry = shape.geometry
        weights.withOperands { packed, zeros, epilogue in
            if let uniformColumns {
                visage_f32_conv_run_uniform(
                    isa.cValue, &geometry, packed, zeros, epilogue, input, residual, residualChannels, output,
                    outputRows.lowerBound, outputRows.upperBound, channels.lowerBound, channels.upperBound, uniformColumns)
            } else {
                visage_f32_conv_run(
                    isa.cValue, &geometry, packed, zeros, epilogue, input, residual, residualChannels, output,
                    outputRows.lowerBound, outputRows.upperBound, channels.lowerBound, channels.upperBound)
            }
        }
    }

    /// Output channels per packed panel: a channel range handed to ``run`` starts at a multiple of it.
    package static let panelWidth = Int(VISAGE_CONV_PANEL)
}
