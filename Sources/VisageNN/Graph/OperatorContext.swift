/// What an operator builder sees of the graph while the planner lowers one operator: its
/// tensors, checked accessors for their shapes and constants, and errors that name the operator.
struct OperatorContext {
    let graph: Graph
    let index: Int
    let node: GraphOperator

    /// "CONV_2D (operator 12)", for messages.
    var name: String { "\(node.code) (operator \(index))" }

    func invalid(_ reason: String) -> ModelError {
        .modelInvalid(reason: "\(name): \(reason)")
    }

    func unsupported(_ reason: String) -> ModelError {
        .unsupportedOption(operator: "\(name)", reason: reason)
    }

    /// Throws unless the operator has `inputs` inputs (at least) and `outputs` outputs.
    func expect(inputs: Int, outputs: Int) throws(ModelError) {
        guard node.inputs.count >= inputs, node.outputs.count == outputs else {
            throw invalid("has \(node.inputs.count) inputs and \(node.outputs.count) outputs; it takes \(inputs) and \(outputs)")
        }
    }

    /// Tensor id of input `position`, which must be present.
    func input(_ position: Int) throws(ModelError) -> Int {
        guard node.inputs.indices.contains(position), node.inputs[position] >= 0 else {
            throw invalid("input \(position) is missing")
        }
        return node.inputs[position]
    }

    /// Tensor id of input `position`, or nil when left out.
    func optionalInput(_ position: Int) -> Int? {
        node.inputs.indices.contains(position) && node.inputs[position] >= 0 ? node.inputs[position] : nil
    }

    func output(_ position: Int = 0) throws(ModelError) -> Int {
        guard node.outputs.indices.contains(position) else { throw invalid("output \(position) is missing") }
        return node.outputs[position]
    }

    func shape(_ tensor: Int) -> [Int] { graph.tensors[tensor].shape }

    /// Shape of a tensor the operator reads or writes as float32 values.
    func floatShape(_ tensor: Int) throws(ModelError) -> [Int] {
        let info = graph.tensors[tensor]
        guard info.type == .float32 || info.constant?.floats != nil else {
            throw unsupported("tensor \(info.name) has type \(info.type); Visage computes in float32")
        }
        return info.shape
    }

    /// The values of a float constant (weights, biases, slopes).
    func floats(_ tensor: Int) throws(ModelError) -> [Float] {
        guard let values = graph.tensors[tensor].constant?.floats else {
            throw unsupported("tensor \(graph.tensors[tensor].name) must be a float constant")
        }
        return values
    }

    /// The values of an integer constant (shapes, axes, paddings).
    func integers(_ tensor: Int) throws(ModelError) -> [Int] {
        guard let values = graph.tensors[tensor].constant?.integers else {
            throw unsupported("tensor \(graph.tensors[tensor].name) must be an integer constant")
        }
        return values
    }

    /// Throws unless `tensor` is declared with `shape`, the shape the operator computes.
    func expectShape(_ tensor: Int, _ shape: [Int]) throws(ModelError) {
        let declared = graph.tensors[tensor].shape
        guard declared == shape else {
            throw invalid("output \(graph.tensors[tensor].name) is declared \(declared) but the operator computes \(shape)")
        }
    }

    /// `axis` made non-negative, checked against `rank`.
    func axis(_ axis: Int, rank: Int) throws(ModelError) -> Int {
        guard axis >= -rank, axis < rank else { throw invalid("axis \(axis) is outside rank \(rank)") }
        return axis < 0 ? axis + rank : axis
    }
}
