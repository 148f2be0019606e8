/// CONV_2D over NHWC float32: packed weights, padding and activation fused, output rows split over threads.
///
/// A fused residual ADD (and the PRELU or clamp after it) happens in the kernel's registers before
/// the single store: the planner fuses an ADD only after a convolution without an activation of
/// its own, so the ADD's activation is the kernel's whole epilogue.
struct ConvolutionOperation: Operation {
    let kernel: PackedConvolution
    let input: Int
    let output: Int
    let batch: Int
    let inputBatchStride: Int
    let outputBatchStride: Int
    let residual: Int?
    /// Channels of the residual: the output's, or fewer when it is zero-padded to the output's.
    let residualChannels: Int

    var reads: [Int] { [input] + (residual.map { [$0] } ?? []) }
    var writes: [Int] { [output] }
    var multiplyAccumulates: Int { batch * kernel.shape.multiplyAccumulates }
    var summary: String {
        let s = kernel.shape
        return "conv \(s.kernelHeight)×\(s.kernelWidth)/\(s.strideY) \(s.inputHeight)×\(s.inputWidth)×\(s.inputChannels)→\(s.outputChannels)"
            + (batch > 1 ? " ×\(batch)" : "") + (residual != nil ? " +residual" : "")
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
        guard inputShape.count == 4, weightShape.count == 4, inputShape.allSatisfy({ $0 > 0 }), weightShape.allSatisfy({ $0 > 0 }) else {
            throw context.invalid("input \(inputShape) and weights \(weightShape) must both be non-empty 4-D tensors")
        }
        guard weightShape[3] == inputShape[3] else {
            throw context.invalid("weights \(weightShape) take \(weightShape[3]) channels but the input \(inputShape) has \(inputShape[3])")
        }
        let bias = try context.optionalInput(2).map { (tensor) throws(ModelError) in try context.floats(tensor) }
        if let bias, bias.count != weightShape[0] {
            throw context.invalid("bias has \(bias.count) values for \(weightShape[0]) output channels")
        }
        if let slopes = fusion.epilogue.preluSlopes, slopes.count != weightShape[0] {
            throw context.invalid("PReLU slopes have \(slopes.count) values for \(weightShape[0]) output channels")
        }
        let (height, top) = try ConvolutionFusion.resolve(
            context, input: inputShape[1], before: fusion.padTop, after: fusion.padBottom,
            kernel: weightShape[1], stride: options.strideY, padding: options.padding)
        let (width, left) = try ConvolutionFusion.resolve(
            context, input: inputShape[2], before: fusion.padLeft, after: fusion.padRight,
            kernel: weightShape[2], stride: options.strideX, padding: options.padding)
        let outputShape = [inputShape[0], height, width, weightShape[0]]
        try context.expectShape(fusion.output, outputShape)
        var residualChannels = weightShape[0]
        if let residual = fusion.residual {
            let shape = try context.floatShape(residual)
            guard shape.count == 4, shape.dropLast() == outputShape.dropLast(), (1 ... weightShape[0]).contains(shape[3]) else {
                throw context.invalid("the residual \(shape) does not match the output \(outputShape)")
            }
            residualChannels = shape[3]
        }
        if let slopes = fusion.residualEpilogue.preluSlopes, slopes.count != weightShape[0] {
            throw context.invalid("PReLU slopes have \(slopes.count) values for \(weightShape[0]) output channels")
        }
        // The kernel applies one epilogue, after the residual: an activation before the ADD would need a second.
        guard fusion.residual == nil || fusion.epilogue == ConvolutionEpilogue() else {
            throw context.unsupported("an activation between the convolution and its fused residual ADD")
        }
        let shape = ConvolutionShape(
            inputHeight: inputShape[1], inputWidth: inputShape[2], inputChannels: inputShape[3],
            outputHeight: height, outputWidth: width, outputChannels: weightShape[0],
            kernelHeight: weightShape[1], kernelWidth: weightShape[2],
            strideY: options.strideY, strideX: options.strideX, padTop: top, padLeft: left)
        kernel = weights.withUnsafeBufferPointer { weights in
            bias.withUnsafeBufferPointer { bias in
                PackedConvolution(
                    shape: shape, weightsOHWI: weights, bias: bias,
                    epilogue: fusion.residual == nil ? fusion.epilogue : fusion.residualEpilogue)
            }
        }
        input = fusion.input
        output = fusion.output
        batch = inputShape[0]
        inputBatchStride = inputShape[1] * inputShape[2] * inputShape[3]
        outputBatchStride = height * width * weightShape[0]
        residual = fusion.residual
        self.residualChannels = residualChannels
    }

    func split(threads: Int) -> OutputSplit {
        let s = kernel.shape
        return OutputSplit(
            rows: s.outputHeight, panels: (s.outputChannels + PackedConvolution.panelWidth - 1) / PackedConvolution.panelWidth,
            work: s.splitWork, weightsOutweighActivations: s.weightsOutweighActivations, threads: threads)
    }

    func run(_ tensors: TensorPointers, workers: Workers) {
        run(tensors, workers: workers, uniformColumns: nil)
    }

    /// Describes the output's uniform rows from the input's (and the residual's), then computes one
    /// pixel of each run of two or more.
    func run(_ tensors: TensorPointers, workers: Workers, uniformRows: UniformRows) {
        guard batch == 1, let (described, runs) = uniformRows.describe(output, from: input, through: kernel.shape) else {
            run(tensors, workers: workers)
            uniformRows.forget(output)
            return
        }
        var any = runs
        if let residual {
            if let residualRows = uniformRows.rows(residual, height: kernel.shape.outputHeight) {
                any = false
                for y in 0 ..< kernel.shape.outputHeight {
                    let lo = max(described[2 * y], residualRows[2 * y]), hi = min(described[2 * y + 1], residualRows[2 * y + 1])
                    (described[2 * y], described[2 * y + 1]) = lo < hi ? (lo, hi) : (0, 0)
                    any = any || hi - lo >= 2
                }
            } else {
                uniformRows.forget(output)
                any = false
            }
        }
        run(tensors, workers: workers, uniformColumns: any ? UnsafePointer(described) : nil)
    }

    private func run(_ tensors: TensorPointers, workers: Workers, uniformColumns: UnsafePointer<Int32>?) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        let r = residual.map { UnsafePointer(tensors[$0]) }
        let s = kernel.shape
        let residualBatchStride = outputBatchStride / s.outputChannels * residualChannels
        let split = split(threads: workers.count)
        for image in 0 ..< batch {
            forEachOutputBlock(
                rows: s.outputHeight, channels: s.outputChannels, panelWidth: PackedConvolution.panelWidth, split: split, workers: workers
            ) { rows, channels in
                kernel.run(
                    input: x + image * inputBatchStride, residual: r.map { $0 + image * residualBatchStride },
                    residualChannels: residualChannels, output: y + image * outputBatchStride, outputRows: rows,
                    outputChannels: channels, uniformColumns: uniformColumns)
            }
        }
    }
}
