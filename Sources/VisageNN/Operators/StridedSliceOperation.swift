/// STRIDED_SLICE with constant begin, end and strides; begin, end and shrink-axis masks honoured.
struct StridedSliceOperation: Operation {
    let input: Int, output: Int
    private let walk: StridedWalk

    var reads: [Int] { [input] }
    var writes: [Int] { [output] }

    init(_ context: OperatorContext) throws(ModelError) {
        try context.expect(inputs: 4, outputs: 1)
        guard case .stridedSlice(let options) = context.node.options else { throw context.invalid("has no strided slice options") }
        guard options.ellipsisMask == 0, options.newAxisMask == 0, !options.offset else {
            throw context.unsupported("ellipsis_mask, new_axis_mask or offset (Visage slices with begin, end and shrink masks)")
        }
        input = try context.input(0)
        output = try context.output()
        let shape = try context.floatShape(input)
        let begins = try context.integers(try context.input(1))
        let ends = try context.integers(try context.input(2))
        let steps = try context.integers(try context.input(3))
        guard begins.count == shape.count, ends.count == shape.count, steps.count == shape.count else {
            throw context.invalid("begin, end and strides must each have \(shape.count) values")
        }
        let inputStrides = StridedWalk.strides(of: shape)
        var dimensions: [Int] = [], strides: [Int] = [], outputShape: [Int] = []
        var base = 0
        for axis in shape.indices {
            let size = shape[axis], step = steps[axis]
            let masked = { (mask: Int) in mask >> axis & 1 == 1 }
            guard step != 0, abs(step) <= 1 << 30 else { throw context.invalid("stride \(step) on axis \(axis)") }
            func clamped(_ value: Int) -> Int {
                let value = value < 0 ? value + size : value
                return step > 0 ? min(max(value, 0), size) : min(max(value, -1), size - 1)
            }
            var begin = masked(options.beginMask) ? (step > 0 ? 0 : size - 1) : clamped(begins[axis])
            var end = masked(options.endMask) ? (step > 0 ? size : -1) : clamped(ends[axis])
            var stride = step
            if masked(options.shrinkAxisMask) {
                begin = begins[axis] < 0 ? begins[axis] + size : begins[axis]
                guard (0 ..< size).contains(begin) else {
                    throw context.invalid("shrunk axis \(axis) takes index \(begins[axis]) of \(size)")
                }
                end = begin + 1
                stride = 1
            }
            let count = stride > 0 ? max(0, (end - begin + stride - 1) / stride) : max(0, (begin - end - stride - 1) / -stride)
            dimensions.append(count)
            strides.append(inputStrides[axis] * stride)
            if count > 0 { base += begin * inputStrides[axis] }
            if !masked(options.shrinkAxisMask) { outputShape.append(count) }
        }
        try context.expectShape(output, outputShape)
        walk = StridedWalk(dimensions: dimensions, stridesA: strides, stridesB: strides.map { _ in 0 }, baseA: base)
    }

    func run(_ tensors: TensorPointers, workers: Workers) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        walk.forEach { index, from, _ in y[index] = x[from] }
    }
}
