/// PAD with zeros on any axes of a tensor of rank ≤ 4 (the detectors pad channels this way, to
/// widen a residual branch). Padding that only a following convolution reads is folded into the
/// convolution by the planner instead.
struct PadOperation: Operation {
    let input: Int, output: Int
    /// Input shape and leading padding, as 4-D.
    let inputShape: [Int]
    let before: [Int]
    let outputShape: [Int]
    let outputCount: Int

    var reads: [Int] { [input] }
    var writes: [Int] { [output] }

    /// The (before, after) zero padding of each axis, checked: a constant rank×2 tensor of non-negative values.
    static func paddings(_ context: OperatorContext, rank: Int) throws(ModelError) -> [(Int, Int)] {
        let tensor = try context.input(1)
        let values = try context.integers(tensor)
        guard context.shape(tensor) == [rank, 2], values.count == rank * 2 else {
            throw context.invalid("paddings \(context.shape(tensor)) must be \(rank)×2")
        }
        guard values.allSatisfy({ $0 >= 0 && $0 <= 1 << 16 }) else {
            throw context.unsupported("paddings \(values); Visage pads by 0…65536 (no cropping)")
        }
        return (0 ..< rank).map { (values[2 * $0], values[2 * $0 + 1]) }
    }

    init(_ context: OperatorContext) throws(ModelError) {
        try context.expect(inputs: 2, outputs: 1)
        guard context.optionalInput(2) == nil else { throw context.unsupported("a constant value other than zero") }
        input = try context.input(0)
        output = try context.output()
        let shape = try context.floatShape(input)
        guard shape.count <= 4 else { throw context.unsupported("rank \(shape.count); Visage pads up to rank 4") }
        let paddings = try Self.paddings(context, rank: shape.count)
        let padded = shape.indices.map { shape[$0] + paddings[$0].0 + paddings[$0].1 }
        guard padded.reduce(1, { $0.multipliedReportingOverflow(by: $1).overflow ? Int.max : $0 * $1 }) <= Graph.maximumTensorElements else {
            throw context.invalid("padding \(shape) gives more than \(Graph.maximumTensorElements) elements")
        }
        try context.expectShape(output, padded)
        let missing = 4 - shape.count
        inputShape = Array(repeating: 1, count: missing) + shape
        before = Array(repeating: 0, count: missing) + paddings.map(\.0)
        outputShape = Array(repeating: 1, count: missing) + padded
        outputCount = padded.reduce(1, *)
    }

    func run(_ tensors: TensorPointers, workers: Workers) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        let rowLength = inputShape[3]
        let channelsOnly = before[0] == 0 && before[1] == 0 && before[2] == 0
            && inputShape[0] == outputShape[0] && inputShape[1] == outputShape[1] && inputShape[2] == outputShape[2]
        if channelsOnly {
            // Each pixel: copy its channels, zero the rest. No pass over the whole output first.
            let pixels = inputShape[0] * inputShape[1] * inputShape[2]
            let width = outputShape[3], leading = before[3], trailing = width - leading - rowLength
            for pixel in 0 ..< pixels {
                let to = y + pixel * width
                to.update(repeating: 0, count: leading)
                (to + leading).update(from: x + pixel * rowLength, count: rowLength)
                (to + leading + rowLength).update(repeating: 0, count: trailing)
            }
            return
        }
        y.update(repeating: 0, count: outputCount)
        var from = x
        for n in 0 ..< inputShape[0] {
            for h in 0 ..< inputShape[1] {
                for w in 0 ..< inputShape[2] {
                    let to = (((n + before[0]) * outputShape[1] + h + before[1]) * outputShape[2] + w + before[2]) * outputShape[3] + before[3]
                    (y + to).update(from: from, count: rowLength)
                    from += rowLength
                }
            }
        }
    }
}
