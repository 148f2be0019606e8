/// MAX_POOL_2D over NHWC; with SAME padding the window ignores taps outside the input, as TFLite
/// does. Runs the ``Pooling`` kernel, output rows split over threads for large layers.
struct MaxPoolOperation: Operation {
    let input: Int, output: Int
    let batch: Int
    let shape: ConvolutionShape
    let minimum: Float, maximum: Float

    var reads: [Int] { [input] }
    var writes: [Int] { [output] }

    init(_ context: OperatorContext, activation: Activation? = nil, output: Int? = nil) throws(ModelError) {
        try context.expect(inputs: 1, outputs: 1)
        guard case .pool(let options) = context.node.options else { throw context.invalid("has no pooling options") }
        input = try context.input(0)
        if let output { self.output = output } else { self.output = try context.output() }
        let inputShape = try context.floatShape(input)
        guard inputShape.count == 4, inputShape.allSatisfy({ $0 > 0 }) else {
            throw context.invalid("input \(inputShape) must be a non-empty NHWC tensor")
        }
        let (height, top) = options.padding.resolve(input: inputShape[1], kernel: options.filterHeight, stride: options.strideY)
        let (width, left) = options.padding.resolve(input: inputShape[2], kernel: options.filterWidth, stride: options.strideX)
        guard height > 0, width > 0 else {
            throw context.invalid("a \(options.filterHeight)×\(options.filterWidth) window does not fit the input \(inputShape)")
        }
        try context.expectShape(self.output, [inputShape[0], height, width, inputShape[3]])
        batch = inputShape[0]
        shape = ConvolutionShape(
            inputHeight: inputShape[1], inputWidth: inputShape[2], inputChannels: inputShape[3],
            outputHeight: height, outputWidth: width, outputChannels: inputShape[3],
            kernelHeight: options.filterHeight, kernelWidth: options.filterWidth,
            strideY: options.strideY, strideX: options.strideX, padTop: top, padLeft: left)
        (minimum, maximum) = (activation ?? options.activation).bounds
    }

    /// By rows; a tap costs about four convolution multiply-accumulates (the pool is bound by its loads).
    func split(threads: Int) -> OutputSplit {
        let work = 4 * shape.outputHeight * shape.outputWidth * shape.outputChannels * shape.kernelHeight * shape.kernelWidth
        return OutputSplit(rows: shape.outputHeight, panels: 1, work: work, threads: threads)
    }

    /// Computes every pixel; describes the output's uniform rows from the input's.
    func run(_ tensors: TensorPointers, workers: Workers, uniformRows: UniformRows) {
        run(tensors, workers: workers)
        if batch == 1 {
            uniformRows.describe(output, from: input, through: shape)
        } else {
            uniformRows.forget(output)
        }
    }

    func run(_ tensors: TensorPointers, workers: Workers) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        let inputStride = shape.inputHeight * shape.inputWidth * shape.inputChannels
        let outputStride = shape.outputHeight * shape.outputWidth * shape.outputChannels
        let split = split(threads: workers.count)
        for image in 0 ..< batch {
            forEachRowRange(shape.outputHeight, split: split, workers: workers) { rows in
                Pooling.maxPool(
                    shape: shape, input: x + image * inputStride, output: y + image * outputStride, outputRows: rows,
                    min: minimum, max: maximum)
            }
        }
    }
}
