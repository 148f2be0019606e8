/// CONCATENATION along any axis: each outer slice of the output is the inputs' slices in turn.
struct ConcatenationOperation: Operation {
    let inputs: [Int]
    let output: Int
    /// Product of the dimensions before the axis.
    let outerCount: Int
    /// Values each input contributes per outer slice.
    let chunks: [Int]
    let minimum: Float, maximum: Float

    var reads: [Int] { inputs }
    var writes: [Int] { [output] }

    init(_ context: OperatorContext) throws(ModelError) {
        guard case .concatenation(let axisOption, let activation) = context.node.options else {
            throw context.invalid("has no concatenation options")
        }
        guard !context.node.inputs.isEmpty else { throw context.invalid("has no inputs") }
        try context.expect(inputs: context.node.inputs.count, outputs: 1)
        inputs = try (0 ..< context.node.inputs.count).map { (position) throws(ModelError) in try context.input(position) }
        output = try context.output()
        let first = try context.floatShape(inputs[0])
        let axis = try context.axis(axisOption, rank: first.count)
        var shape = first
        shape[axis] = 0
        var chunks: [Int] = []
        for tensor in inputs {
            let other = try context.floatShape(tensor)
            guard other.count == first.count, other.indices.allSatisfy({ $0 == axis || other[$0] == first[$0] }) else {
                throw context.invalid("input \(other) does not match \(first) outside axis \(axis)")
            }
            shape[axis] += other[axis]
            chunks.append(other[axis...].reduce(1, *))
        }
        try context.expectShape(output, shape)
        self.chunks = chunks
        outerCount = first[..<axis].reduce(1, *)
        (minimum, maximum) = activation.bounds
    }

    func run(_ tensors: TensorPointers, workers: Workers) {
        var to = tensors[output]
        for outer in 0 ..< outerCount {
            for (tensor, chunk) in zip(inputs, chunks) {
                to.update(from: tensors[tensor] + outer * chunk, count: chunk)
                if minimum != -.infinity || maximum != .infinity {
                    Elementwise.clamp(to, to, count: chunk, min: minimum, max: maximum)
                }
                to += chunk
            }
        }
    }
}
