/// A DEPTHWISE_CONV_2D (depth multiplier 1, any kernel size) with its weights packed once.
///
/// `shape.inputChannels` must equal `shape.outputChannels`. `run` is thread-safe and writes only
/// the output rows it is given.
package final class PackedDepthwiseConvolution: Sendable {
    package let shape: ConvolutionShape
    package let epilogue: ConvolutionEpilogue
    private let weights: [Float]
    private let bias: [Float]

    /// - Parameters:
    ///   - weightsHWC: `kernelHeight × kernelWidth × channels` values (TFLite's 1×H×W×C).
    ///   - bias: `channels` values, or nil for none.
    package init(
        shape: ConvolutionShape, weightsHWC: UnsafeBufferPointer<Float>, bias: UnsafeBufferPointer<Float>?,
        epilogue: ConvolutionEpilogue
    ) {
        precondition(shape.isValid && shape.inputChannels == shape.outputChannels, "invalid depthwise shape \(shape)")
        precondition(weightsHWC.count == shape.kernelHeight * shape.kernelWidth * shape.outputChannels)
        precondition(bias == nil || bias!.count == shape.outputChannels)
        precondition(epilogue.preluSlopes == nil || epilogue.preluSlopes!.count == shape.outputChannels)
        self.shape = shape
        self.epilogue = epilogue
        self.weights = Array(weightsHWC)
        self.bias = bias.map { Array($0) } ?? Array(repeating: 0, count: shape.outputChannels)
    }

    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, outputRows: Range<Int>) {
        precondition(outputRows.lowerBound >= 0 && outputRows.upperBound <= shape.outputHeight)
        weights.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                ReferenceKernels.depthwiseConvolution(
                    shape: shape, input: input, weightsHWC: w, bias: b, epilogue: epilogue,
                    output: output, outputRows: outputRows)
            }
        }
    }
}
