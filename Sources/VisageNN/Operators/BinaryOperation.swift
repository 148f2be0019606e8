/// ADD, SUB, MUL, DIV, SQUARED_DIFFERENCE and PRELU with TFLite's broadcasting (shapes aligned on
/// the right, each pair of dimensions equal or one of them 1) and a fused clamp.
///
/// Equal shapes go straight to the contiguous ``Elementwise`` kernels; a per-channel second
/// operand (PRELU's slopes, a bias) and a scalar have their own loops; anything else walks the
/// broadcast with ``StridedWalk``.
struct BinaryOperation: Operation {
    enum Function: Sendable {
        case add, subtract, multiply, divide, squaredDifference, prelu

        @inline(__always)
        func callAsFunction(_ a: Float, _ b: Float) -> Float {
            switch self {
            case .add: a + b
            case .subtract: a - b
            case .multiply: a * b
            case .divide: a / b
            case .squaredDifference: (a - b) * (a - b)
            case .prelu: a >= 0 ? a : a * b
            }
        }
    }

    private enum Layout: Sendable {
        /// Both operands have the output's shape.
        case equal(count: Int)
        /// `b` repeats every `channels` values of `a` (and of the output).
        case channelwise(count: Int, channels: Int)
        case general(StridedWalk)
    }

    let function: Function
    let a: Int, b: Int, output: Int
    let minimum: Float, maximum: Float
    private let layout: Layout

    var reads: [Int] { [a, b] }
    var writes: [Int] { [output] }

    init(_ context: OperatorContext, function: Function, activation: Activation, output: Int? = nil) throws(ModelError) {
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
        let count = shape.reduce(1, *)
        let channels = shape.last ?? 1
        if paddedA == shape, paddedB == shape {
            layout = .equal(count: count)
        } else if paddedA == shape, paddedB.dropLast().allSatisfy({ $0 == 1 }), count > 0,
                  paddedB.last == channels || shapeB.reduce(1, *) == 1 {
            layout = .channelwise(count: count, channels: shapeB.reduce(1, *))
        } else {
            func strides(_ padded: [Int]) -> [Int] {
                zip(StridedWalk.strides(of: padded), padded).map { $1 == 1 ? 0 : $0 }
            }
            layout = .general(StridedWalk(dimensions: shape, stridesA: strides(paddedA), stridesB: strides(paddedB)))
        }
    }

    func run(_ tensors: TensorPointers, threads: Int) {
        let x = UnsafePointer(tensors[a]), y = UnsafePointer(tensors[b]), out = tensors[output]
        switch layout {
        case .equal(let count):
            switch function {
            case .add: Elementwise.add(x, y, out, count: count, min: minimum, max: maximum)
            case .subtract: Elementwise.subtract(x, y, out, count: count, min: minimum, max: maximum)
            case .multiply: Elementwise.multiply(x, y, out, count: count, min: minimum, max: maximum)
            default: loop(count: count) { function(x[$0], y[$0]) }
            }
        case .channelwise(let count, let channels):
            if function == .prelu, minimum == -.infinity, maximum == .infinity {
                Elementwise.prelu(x, slopes: y, channels: channels, out, count: count)
            } else {
                var index = 0
                while index < count {
                    for channel in 0 ..< channels {
                        out[index + channel] = clamp(function(x[index + channel], y[channel]))
                    }
                    index += channels
                }
            }
        case .general(let walk):
            walk.forEach { index, offsetA, offsetB in out[index] = clamp(function(x[offsetA], y[offsetB])) }
        }

        @inline(__always)
        func loop(count: Int, _ value: (Int) -> Float) {
            for index in 0 ..< count { out[index] = clamp(value(index)) }
        }
    }

    @inline(__always)
    private func clamp(_ value: Float) -> Float {
        Swift.min(Swift.max(value, minimum), maximum)
    }
}
