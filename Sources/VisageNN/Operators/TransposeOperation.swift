/// TRANSPOSE by a constant permutation: output axis i is input axis perm[i].
struct TransposeOperation: Operation {
    let input: Int, output: Int
    private let walk: StridedWalk
    /// (matrices, rows, columns) when the permutation only swaps the last two axes: a batch of
    /// matrix transposes, run as plain loops (the blendshape model's token mixing).
    private let matrices: (count: Int, rows: Int, columns: Int)?

    var reads: [Int] { [input] }
    var writes: [Int] { [output] }

    init(_ context: OperatorContext) throws(ModelError) {
        try context.expect(inputs: 2, outputs: 1)
        input = try context.input(0)
        output = try context.output()
        let shape = try context.floatShape(input)
        let permutation = try context.integers(try context.input(1))
        guard permutation.sorted() == Array(shape.indices) else {
            throw context.invalid("permutation \(permutation) is not a permutation of the \(shape.count) axes")
        }
        let strides = StridedWalk.strides(of: shape)
        let outputShape = permutation.map { shape[$0] }
        try context.expectShape(output, outputShape)
        walk = StridedWalk(dimensions: outputShape, stridesA: permutation.map { strides[$0] }, stridesB: permutation.map { _ in 0 })
        let rank = shape.count
        if rank >= 2, permutation == Array(0 ..< rank - 2) + [rank - 1, rank - 2] {
            matrices = (shape[..<(rank - 2)].reduce(1, *), shape[rank - 2], shape[rank - 1])
        } else {
            matrices = nil
        }
    }

    func run(_ tensors: TensorPointers, threads: Int) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        if let (count, rows, columns) = matrices {
            for matrix in 0 ..< count {
                let from = x + matrix * rows * columns, to = y + matrix * rows * columns
                for row in 0 ..< rows {
                    for column in 0 ..< columns { to[column * rows + row] = from[row * columns + column] }
                }
            }
            return
        }
        walk.forEach { index, from, _ in y[index] = x[from] }
    }
}
