/// ADD, SUB, MUL, DIV, SQUARED_DIFFERENCE and PRELU with TFLite's broadcasting (shapes aligned on
/// the right, each pair of dimensions equal or one of them 1), a fused clamp and optionally a
/// fused per-channel PRELU (the residual ADD → PRELU of the mesh).
///
/// Equal shapes go straight to the contiguous ``Elementwise`` kernels; a per-channel second
/// operand and anything else run as rows along the last axis, each operand either contiguous or
/// repeated along the row, so the inner loop stays simple enough for the compiler to vectorise.
struct BinaryOperation: Operation {
    enum Function: Sendable {
        case add, subtract, multiply, divide, squaredDifference, prelu
    }

    private enum Layout: Sendable {
        /// Both operands have the output's shape.
        case equal(count: Int)
        /// Rows of `length` values; `outer` walks the rows (offset A and B are the rows' starts),
        /// and within a row A and B advance by `strideA` and `strideB` (1, or 0 when broadcast).
        /// Indirect: inline, Swift stores this enum's case in a spare bit of the walk's third array
        /// pointer, which LeakSanitizer then cannot follow, so it reported a model's arrays as leaked
        /// (FUZZING.md, finding 11).
        indirect case rows(outer: StridedWalk, length: Int, strideA: Int, strideB: Int)
    }

    let function: Function
    let a: Int, b: Int, output: Int
    let minimum: Float, maximum: Float
    /// Slopes of a PRELU fused after the clamp, one per channel of the output.
    let slopes: [Float]?
    private let count: Int
    private let layout: Layout

    var reads: [Int] { [a, b] }
    var writes: [Int] { [output] }

    /// Values per block when a fused PRELU follows the arithmetic, so the second pass reads from L1.
    private static let blockLength = 4096

    init(
        _ context: OperatorContext, function: Function, activation: Activation, output: Int? = nil, slopes: [Float]? = nil
    ) throws(ModelError) {
        try context.expect(inputs: 2, outputs: 1)
        self.function = function
        a = try context.input(0)
        b = try context.input(1)
        if let output { self.output = output } else { self.output = try context.output() }
        (minimum, maximum) = activation.bounds
        let shapeA = try context.floatShape(a), shapeB = try context.floatShape(b)
        let rank = max(shapeA.count, shapeB.count)
        let paddedA = Array(repeating: 1, count: rank - shapeA.count) + shapeA
        let paddedB = Array(repeating: 1, count: rank - shapeB.count) + shapeB
        var shape: [Int] = []
        for axis in 0 ..< rank {
            let (x, y) = (paddedA[axis], paddedB[axis])
            guard x == y || x == 1 || y == 1 else {
                throw context.invalid("shapes \(shapeA) and \(shapeB) do not broadcast (axis \(axis): \(x) vs \(y))")
            }
            shape.append(x == 1 ? y : x)
        }
        if function == .prelu, shape != paddedA {
            throw context.invalid("slopes \(shapeB) must broadcast to the input \(shapeA)")
        }
        try context.expectShape(self.output, shape)
        if let slopes, slopes.count != shape.last ?? 1 {
            throw context.invalid("a fused PRELU has \(slopes.count) slopes for \(shape.last ?? 1) channels")
        }
        self.slopes = slopes
        count = shape.reduce(1, *)
        if paddedA == shape, paddedB == shape {
            layout = .equal(count: count)
        } else {
            let length = shape.last ?? 1
            func strides(_ padded: [Int]) -> [Int] {
                zip(StridedWalk.strides(of: padded), padded).map { $1 == 1 ? 0 : $0 }
            }
            let stridesA = strides(paddedA), stridesB = strides(paddedB)
            layout = .rows(
                outer: StridedWalk(
                    dimensions: Array(shape.dropLast()), stridesA: Array(stridesA.dropLast()), stridesB: Array(stridesB.dropLast())),
                length: length, strideA: stridesA.last ?? 0, strideB: stridesB.last ?? 0)
        }
    }

    func run(_ tensors: TensorPointers, workers: Workers) {
        let x = UnsafePointer(tensors[a]), y = UnsafePointer(tensors[b]), out = tensors[output]
        switch (layout, function) {
        case (.equal(let count), .add) where slopes == nil:
            Elementwise.add(x, y, out, count: count, min: minimum, max: maximum)
        case (.equal(let count), .subtract) where slopes == nil:
            Elementwise.subtract(x, y, out, count: count, min: minimum, max: maximum)
        case (.equal(let count), .multiply) where slopes == nil:
            Elementwise.multiply(x, y, out, count: count, min: minimum, max: maximum)
        case (.equal(let count), .add):
            // Add then PRELU block by block, while the block is still in L1.
            slopes!.withUnsafeBufferPointer { slopes in
                let channels = slopes.count
                let block = max(Self.blockLength / channels, 1) * channels
                var start = 0
                while start < count {
                    let length = min(block, count - start)
                    Elementwise.add(x + start, y + start, out + start, count: length, min: minimum, max: maximum)
                    Elementwise.prelu(out + start, slopes: slopes.baseAddress!, channels: channels, out + start, count: length)
                    start += length
                }
            }
            return
        default:
            switch function {
            case .add: apply(x, y, out) { $0 + $1 }
            case .subtract: apply(x, y, out) { $0 - $1 }
            case .multiply: apply(x, y, out) { $0 * $1 }
            case .divide: apply(x, y, out) { $0 / $1 }
            case .squaredDifference: apply(x, y, out) { ($0 - $1) * ($0 - $1) }
            case .prelu: apply(x, y, out) { $0 >= 0 ? $0 : $0 * $1 }
            }
        }
        if let slopes {
            slopes.withUnsafeBufferPointer { slopes in
                Elementwise.prelu(out, slopes: slopes.baseAddress!, channels: slopes.count, out, count: count)
            }
        }
    }

    /// `out = clamp(f(x, y))` over the layout, specialised per `f` so the inner loop vectorises.
    @inline(__always)
    private func apply(
        _ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
        _ f: (Float, Float) -> Float
    ) {
        let low = minimum, high = maximum
        @inline(__always) func clamp(_ value: Float) -> Float { value < low ? low : (value > high ? high : value) }
        switch layout {
        case .equal(let count):
            for index in 0 ..< count { out[index] = clamp(f(x[index], y[index])) }
        case .rows(let outer, let length, let strideA, let strideB):
            outer.forEach { row, offsetA, offsetB in
                let to = out + row * length, p = x + offsetA, q = y + offsetB
                switch (strideA, strideB) {
                case (1, 1): for index in 0 ..< length { to[index] = clamp(f(p[index], q[index])) }
                case (1, _):
                    let value = q[0]
                    for index in 0 ..< length { to[index] = clamp(f(p[index], value)) }
                case (_, 1):
                    let value = p[0]
                    for index in 0 ..< length { to[index] = clamp(f(value, q[index])) }
                default:
                    let value = clamp(f(p[0], q[0]))
                    for index in 0 ..< length { to[index] = value }
                }
            }
        }
    }
}
