/// A CONV_2D with its weights packed once, run many times.
///
/// Build one per convolution at model load; `run` is thread-safe and writes only the output
/// rows it is given, so callers can split a layer across threads by rows.
package final class PackedConvolution: Sendable {
    package let shape: ConvolutionShape
    package let epilogue: ConvolutionEpilogue
    private let weights: [Float]
    private let bias: [Float]

    /// - Parameters:
    ///   - weightsOHWI: `outputChannels × kernelHeight × kernelWidth × inputChannels` values.
    ///   - bias: `outputChannels` values, or nil for none.
    package init(
        shape: ConvolutionShape, weightsOHWI: UnsafeBufferPointer<Float>, bias: UnsafeBufferPointer<Float>?,
        epilogue: ConvolutionEpilogue
    ) {
        precondition(shape.isValid, "invalid convolution shape \(shape)")
        precondition(weightsOHWI.count == shape.outputChannels * shape.kernelHeight * shape.kernelWidth * shape.inputChannels)
        precondition(bias == nil || bias!.count == shape.outputChannels)
        precondition(epilogue.preluSlopes == nil || epilogue.preluSlopes!.count == shape.outputChannels)
        self.shape = shape
        self.epilogue = epilogue
        self.weights = Array(weightsOHWI)
        self.bias = bias.map { Array($0) } ?? Array(repeating: 0, count: shape.outputChannels)
    }

    /// Computes output rows `outputRows` (each `outputWidth × outputChannels` values) from the
    /// whole input tensor.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, outputRows: Range<Int>) {
        precondition(outputRows.lowerBound >= 0 && outputRows.upperBound <= shape.outputHeight)
        weights.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                ReferenceKernels.convolution(
                    shape: shape, input: input, weightsOHWI: w, bias: b, epilogue: epilogue,
                    output: output, outputRows: outputRows)
            }
        }
    }
}
