/// MAX_POOL_2D over NHWC; with SAME padding the window ignores taps outside the input, as TFLite does.
struct MaxPoolOperation: Operation {
    let input: Int, output: Int
    let batch: Int, inputHeight: Int, inputWidth: Int, channels: Int
    let outputHeight: Int, outputWidth: Int
    let options: OperatorOptions.Pool
    let padTop: Int, padLeft: Int

    var reads: [Int] { [input] }
    var writes: [Int] { [output] }

    init(_ context: OperatorContext, activation: Activation? = nil, output: Int? = nil) throws(ModelError) {
        try context.expect(inputs: 1, outputs: 1)
        guard case .pool(var options) = context.node.options else { throw context.invalid("has no pooling options") }
        if let activation { options.activation = activation }
        input = try context.input(0)
        if let output { self.output = output } else { self.output = try context.output() }
        let shape = try context.floatShape(input)
        guard shape.count == 4 else { throw context.invalid("input \(shape) must be 4-D (NHWC)") }
        let (height, top) = options.padding.resolve(input: shape[1], kernel: options.filterHeight, stride: options.strideY)
        let (width, left) = options.padding.resolve(input: shape[2], kernel: options.filterWidth, stride: options.strideX)
        try context.expectShape(self.output, [shape[0], height, width, shape[3]])
        self.options = options
        batch = shape[0]
        inputHeight = shape[1]
        inputWidth = shape[2]
        channels = shape[3]
        outputHeight = height
        outputWidth = width
        padTop = top
        padLeft = left
    }

    func run(_ tensors: TensorPointers, threads: Int) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        let (low, high) = options.activation.bounds
        let channels = channels
        var out = y
        for image in 0 ..< batch {
            let base = x + image * inputHeight * inputWidth * channels
            for oy in 0 ..< outputHeight {
                let y0 = max(oy * options.strideY - padTop, 0)
                let y1 = max(min(oy * options.strideY - padTop + options.filterHeight, inputHeight), y0)
                for ox in 0 ..< outputWidth {
                    let x0 = max(ox * options.strideX - padLeft, 0)
                    let x1 = max(min(ox * options.strideX - padLeft + options.filterWidth, inputWidth), x0)
                    // Start from the clamp's floor (-∞ without activation); `>` selects, so it vectorises.
                    for channel in 0 ..< channels { out[channel] = low }
                    for iy in y0 ..< y1 {
                        for ix in x0 ..< x1 {
                            let pixel = base + (iy * inputWidth + ix) * channels
                            for channel in 0 ..< channels {
                                let value = pixel[channel]
                                out[channel] = value > out[channel] ? value : out[channel]
                            }
                        }
                    }
                    if high < .infinity {
                        for channel in 0 ..< channels { out[channel] = out[channel] > high ? high : out[channel] }
                    }
                    out += channels
                }
            }
        }
    }
}
