/// TRANSPOSE by a constant permutation: output axis i is input axis perm[i].
struct TransposeOperation: Operation {
    let input: Int, output: Int
    private let walk: StridedWalk

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
    }

    func run(_ tensors: TensorPointers, threads: Int) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        walk.forEach { index, from, _ in y[index] = x[from] }
    }
}
