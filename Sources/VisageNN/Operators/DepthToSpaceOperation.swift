/// DEPTH_TO_SPACE of an NHWC tensor (TFLite's, which is TensorFlow's "DCR" order): each pixel's
/// channels become a block × block patch of pixels with channels / block² channels each,
///
///     output[n, h·b + dy, w·b + dx, c] = input[n, h, w, (dy·b + dx)·C_out + c].
///
/// For each input pixel and each dy, the channels dy·b·C_out ..< (dy + 1)·b·C_out are one run in
/// the input and one run of b pixels in output row h·b + dy, so the operation is a series of copies.
struct DepthToSpaceOperation: Operation {
    let input: Int, output: Int
    let batches: Int, height: Int, width: Int, blockSize: Int, outputChannels: Int

    var reads: [Int] { [input] }
    var writes: [Int] { [output] }
    var summary: String { "DepthToSpace \(height)×\(width)×\(blockSize * blockSize * outputChannels) block \(blockSize)" }

    init(_ context: OperatorContext) throws(ModelError) {
        try context.expect(inputs: 1, outputs: 1)
        guard case .depthToSpace(let blockSize) = context.node.options else { throw context.invalid("has no block size") }
        input = try context.input(0)
        output = try context.output()
        let shape = try context.floatShape(input)
        guard shape.count == 4 else { throw context.unsupported("input of rank \(shape.count); DEPTH_TO_SPACE takes NHWC") }
        guard shape[3] % (blockSize * blockSize) == 0 else {
            throw context.invalid("\(shape[3]) channels do not divide into blocks of \(blockSize)×\(blockSize)")
        }
        (batches, height, width, self.blockSize) = (shape[0], shape[1], shape[2], blockSize)
        outputChannels = shape[3] / (blockSize * blockSize)
        let (outputHeight, overflowHeight) = height.multipliedReportingOverflow(by: blockSize)
        let (outputWidth, overflowWidth) = width.multipliedReportingOverflow(by: blockSize)
        guard !overflowHeight, !overflowWidth else { throw context.invalid("block size \(blockSize) overflows the output shape") }
        try context.expectShape(output, [batches, outputHeight, outputWidth, outputChannels])
    }

    func run(_ tensors: TensorPointers, workers: Workers) {
        Self.run(
            UnsafePointer(tensors[input]), into: tensors[output],
            batches: batches, height: height, width: width, blockSize: blockSize, outputChannels: outputChannels)
    }

    static func run(
        _ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>,
        batches: Int, height: Int, width: Int, blockSize: Int, outputChannels: Int
    ) {
        let run = blockSize * outputChannels
        let inputChannels = blockSize * run
        let outputRow = width * run
        for image in 0 ..< batches * height {
            let source = x + image * width * inputChannels
            let destination = y + image * blockSize * outputRow
            for dy in 0 ..< blockSize {
                let row = destination + dy * outputRow
                for column in 0 ..< width {
                    (row + column * run).update(from: source + column * inputChannels + dy * run, count: run)
                }
            }
        }
    }
}
