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

    func run(_ tensors: TensorPointers, workers: Workers) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        if let (count, rows, columns) = matrices {
            for matrix in 0 ..< count {
                Self.transpose(x + matrix * rows * columns, rows: rows, columns: columns, into: y + matrix * rows * columns)
            }
            return
        }
        walk.forEach { index, from, _ in y[index] = x[from] }
    }

    /// `to[c][r] = from[r][c]` for a rows × columns matrix, in 4×4 blocks moved as four vectors
    /// each way, so every load and store is a whole vector instead of one strided value.
    static func transpose(_ from: UnsafePointer<Float>, rows: Int, columns: Int, into to: UnsafeMutablePointer<Float>) {
        let source = UnsafeRawPointer(from), destination = UnsafeMutableRawPointer(to)
        let fullRows = rows & ~3, fullColumns = columns & ~3
        for row in stride(from: 0, to: fullRows, by: 4) {
            for column in stride(from: 0, to: fullColumns, by: 4) {
                func load(_ r: Int) -> SIMD4<Float> {
                    source.loadUnaligned(fromByteOffset: ((row + r) * columns + column) * 4, as: SIMD4<Float>.self)
                }
                let (a, b, c, d) = (load(0), load(1), load(2), load(3))
                func store(_ value: SIMD4<Float>, _ k: Int) {
                    destination.storeBytes(of: value, toByteOffset: ((column + k) * rows + row) * 4, as: SIMD4<Float>.self)
                }
                store(SIMD4(a[0], b[0], c[0], d[0]), 0)
                store(SIMD4(a[1], b[1], c[1], d[1]), 1)
                store(SIMD4(a[2], b[2], c[2], d[2]), 2)
                store(SIMD4(a[3], b[3], c[3], d[3]), 3)
            }
            for column in fullColumns ..< columns {
                for r in row ..< row + 4 { to[column * rows + r] = from[r * columns + column] }
            }
        }
        for row in fullRows ..< rows {
            for column in 0 ..< columns { to[column * rows + row] = from[row * columns + column] }
        }
    }
}
