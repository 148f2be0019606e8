/// DEPTHWISE_CONV_2D (depth multiplier 1) over NHWC float32, with padding and activation fused.
struct DepthwiseConvolutionOperation: Operation {
    let kernel: PackedDepthwiseConvolution
    let input: Int
    let output: Int
    let batch: Int
    let inputBatchStride: Int
    let outputBatchStride: Int

    var reads: [Int] { [input] }
    var writes: [Int] { [output] }
    var multiplyAccumulates: Int { batch * kernel.shape.multiplyAccumulates / kernel.shape.inputChannels }
    var summary: String {
        let s = kernel.shape
        return "dw \(s.kernelHeight)×\(s.kernelWidth)/\(s.strideY) \(s.inputHeight)×\(s.inputWidth)×\(s.inputChannels)"
    }

    init(_ context: OperatorContext, fusion: ConvolutionFusion) throws(ModelError) {
        try context.expect(inputs: 2, outputs: 1)
        guard case .convolution(let options) = context.node.options else { throw context.invalid("has no convolution options") }
        guard options.dilationX == 1, options.dilationY == 1 else {
            throw context.unsupported("dilation \(options.dilationY)×\(options.dilationX); Visage convolves with dilation 1")
        }
        let inputShape = try context.floatShape(fusion.input)
        let weightsTensor = try context.input(1)
        let weightShape = context.shape(weightsTensor)
        let weights = try context.floats(weightsTensor)
        guard inputShape.count == 4, weightShape.count == 4, inputShape.allSatisfy({ $0 > 0 }), weightShape.allSatisfy({ $0 > 0 }),
              weightShape[0] == 1
        else {
            throw context.invalid("input \(inputShape) and weights \(weightShape) must be non-empty 4-D tensors, weights 1×H×W×C")
        }
        let channels = inputShape[3]
        guard weightShape[3] == channels * options.depthMultiplier else {
            throw context.invalid("weights \(weightShape) do not match \(channels) channels × depth multiplier \(options.depthMultiplier)")
        }
        guard options.depthMultiplier == 1 else {
            throw context.unsupported("depth multiplier \(options.depthMultiplier); Visage runs depth multiplier 1")
        }
        let bias = try context.optionalInput(2).map { (tensor) throws(ModelError) in try context.floats(tensor) }
        if let bias, bias.count != channels {
            throw context.invalid("bias has \(bias.count) values for \(channels) channels")
        }
        if let slopes = fusion.epilogue.preluSlopes, slopes.count != channels {
            throw context.invalid("PReLU slopes have \(slopes.count) values for \(channels) channels")
        }
        let (height, top) = try ConvolutionFusion.resolve(
            context, input: inputShape[1], before: fusion.padTop, after: fusion.padBottom,
            kernel: weightShape[1], stride: options.strideY, padding: options.padding)
        let (width, left) = try ConvolutionFusion.resolve(
            context, input: inputShape[2], before: fusion.padLeft, after: fusion.padRight,
            kernel: weightShape[2], stride: options.strideX, padding: options.padding)
        try context.expectShape(fusion.output, [inputShape[0], height, width, channels])
        let shape = ConvolutionShape(
            inputHeight: inputShape[1], inputWidth: inputShape[2], inputChannels: channels,
            outputHeight: height, outputWidth: width, outputChannels: channels,
            kernelHeight: weightShape[1], kernelWidth: weightShape[2],
            strideY: options.strideY, strideX: options.strideX, padTop: top, padLeft: left)
        kernel = weights.withUnsafeBufferPointer { weights in
            bias.withUnsafeBufferPointer { bias in
                PackedDepthwiseConvolution(shape: shape, weightsHWC: weights, bias: bias, epilogue: fusion.epilogue)
            }
        }
        input = fusion.input
        output = fusion.output
        batch = inputShape[0]
        inputBatchStride = inputShape[1] * inputShape[2] * channels
        outputBatchStride = height * width * channels
    }

    /// By rows; a depthwise multiply-accumulate costs about two of a convolution's (each loads its own weight).
    func split(threads: Int) -> OutputSplit {
        OutputSplit(rows: kernel.shape.outputHeight, panels: 1, work: 2 * kernel.shape.multiplyAccumulates / kernel.shape.inputChannels, threads: threads)
    }

    /// Computes the output rows that read only rows of one repeated pixel, or at stride 1 rows with a
    /// long common run, from a few pixels (3×3 kernels), every pixel of the others; describes the output's uniform rows from the input's.
    func run(_ tensors: TensorPointers, workers: Workers, uniformRows: UniformRows) {
        if batch == 1 {
            run(tensors, workers: workers, uniformInput: uniformRows.rows(input, height: kernel.shape.inputHeight))
            uniformRows.describe(output, from: input, through: kernel.shape)
        } else {
            run(tensors, workers: workers)
            uniformRows.forget(output)
        }
    }

    func run(_ tensors: TensorPointers, workers: Workers) {
        run(tensors, workers: workers, uniformInput: nil)
    }

    private func run(_ tensors: TensorPointers, workers: Workers, uniformInput: UnsafePointer<Int32>?) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        let split = split(threads: workers.count)
        for image in 0 ..< batch {
            forEachRowRange(kernel.shape.outputHeight, split: split, workers: workers) { rows in
                kernel.run(
                    input: x + image * inputBatchStride, output: y + image * outputBatchStride, outputRows: rows, uniformInput: uniformInput)
            }
        }
    }
}
