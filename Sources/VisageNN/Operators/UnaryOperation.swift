/// Elementwise operators of one input: NEG, SQRT, RSQRT, LOGISTIC, and the clamps RELU, RELU6,
/// RELU_N1_TO_1 when no producer could absorb them.
struct UnaryOperation: Operation {
    enum Function: Sendable {
        case negate, squareRoot, reciprocalSquareRoot, logistic
        case clamp(min: Float, max: Float)
    }

    let function: Function
    let input: Int, output: Int
    let count: Int

    var reads: [Int] { [input] }
    var writes: [Int] { [output] }

    init(_ context: OperatorContext, function: Function) throws(ModelError) {
        try context.expect(inputs: 1, outputs: 1)
        self.function = function
        input = try context.input(0)
        output = try context.output()
        let shape = try context.floatShape(input)
        try context.expectShape(output, shape)
        count = shape.reduce(1, *)
    }

    func run(_ tensors: TensorPointers, workers: Workers) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        switch function {
        case .negate: for index in 0 ..< count { y[index] = -x[index] }
        case .squareRoot: for index in 0 ..< count { y[index] = x[index].squareRoot() }
        case .reciprocalSquareRoot: for index in 0 ..< count { y[index] = 1 / x[index].squareRoot() }
        case .logistic: Elementwise.logistic(x, y, count: count)
        case .clamp(let minimum, let maximum): Elementwise.clamp(x, y, count: count, min: minimum, max: maximum)
        }
    }
}
