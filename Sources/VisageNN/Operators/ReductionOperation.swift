/// MEAN and SUM over constant axes, with or without keeping the reduced dimensions.
struct ReductionOperation: Operation {
    let input: Int, output: Int
    let outputCount: Int
    /// Divides sums by this (the reduced element count) for MEAN, 1 for SUM.
    let divisor: Float
    /// Walks the input; offset B is the output element each input element adds to.
    private let walk: StridedWalk
    /// When the reduced axes are the trailing ones: each output sums this many contiguous inputs.
    private let trailingRun: Int?

    var reads: [Int] { [input] }
    var writes: [Int] { [output] }

    init(_ context: OperatorContext, mean: Bool) throws(ModelError) {
        try context.expect(inputs: 2, outputs: 1)
        guard case .reducer(let keepDimensions) = context.node.options else { throw context.invalid("has no reducer options") }
        input = try context.input(0)
        output = try context.output()
        let shape = try context.floatShape(input)
        var reduced = Set<Int>()
        for axis in try context.integers(try context.input(1)) {
            reduced.insert(try context.axis(axis, rank: shape.count))
        }
        let kept = shape.indices.map { reduced.contains($0) ? 1 : shape[$0] }
        let outputShape = keepDimensions ? kept : shape.indices.filter { !reduced.contains($0) }.map { shape[$0] }
        try context.expectShape(output, outputShape)
        let keptStrides = StridedWalk.strides(of: kept)
        walk = StridedWalk(
            dimensions: shape, stridesA: StridedWalk.strides(of: shape),
            stridesB: shape.indices.map { reduced.contains($0) ? 0 : keptStrides[$0] })
        outputCount = kept.reduce(1, *)
        let firstReduced = reduced.min() ?? shape.count
        trailingRun = reduced.count == shape.count - firstReduced ? shape[firstReduced...].reduce(1, *) : nil
        let reducedCount = reduced.map { shape[$0] }.reduce(1, *)
        divisor = mean ? Float(max(reducedCount, 1)) : 1
    }

    func run(_ tensors: TensorPointers, workers: Workers) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        if let run = trailingRun {
            for index in 0 ..< outputCount {
                let from = x + index * run
                var sum: Float = 0
                for offset in 0 ..< run { sum += from[offset] }
                y[index] = sum
            }
        } else {
            y.update(repeating: 0, count: outputCount)
            walk.forEach { _, from, to in y[to] += x[from] }
        }
        if divisor != 1 {
            let scale = 1 / divisor
            for index in 0 ..< outputCount { y[index] *= scale }
        }
    }
}
