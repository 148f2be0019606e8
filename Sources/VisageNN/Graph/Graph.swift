/// A model's first subgraph after import: tensors, operators in execution order, inputs, outputs.
///
/// Everything here has been read through the bounds-checked reader, indices have been checked,
/// and float16 constants are already float32. Shapes are as the file declares them; the planner
/// checks each operator's shapes against what the operator computes.
struct Graph: Sendable {
    var tensors: [GraphTensor]
    var operators: [GraphOperator]
    var inputs: [Int]
    var outputs: [Int]

    /// Largest element count one tensor may declare; keeps a forged shape from asking for gigabytes.
    static let maximumTensorElements = 1 << 26
}

/// One tensor of the graph.
struct GraphTensor: Sendable {
    var name: String
    var shape: [Int]
    var type: TensorType
    /// The values of a constant tensor (weights, shapes, axes); nil for activations.
    var constant: Constant?

    var elementCount: Int { shape.reduce(1, *) }
}

/// The values of a constant tensor, widened to one float and one integer type.
enum Constant: Sendable {
    case floats([Float])
    case integers([Int])

    var floats: [Float]? {
        if case .floats(let values) = self { values } else { nil }
    }

    var integers: [Int]? {
        if case .integers(let values) = self { values } else { nil }
    }
}

/// One operator of the graph. Optional inputs the file leaves out are -1.
struct GraphOperator: Sendable {
    var code: BuiltinOperator
    var inputs: [Int]
    var outputs: [Int]
    var options: OperatorOptions
}
