/// A layer normalisation over the last axis that a converter spelled out as ten operators, as in
/// the blendshape model's MLP-Mixer:
///
/// ```
/// m = MEAN(x, last axis, keep dims)      n = NEG(m)
/// v = MEAN(SQUARED_DIFFERENCE(x, m), last axis, keep dims)
/// s = MUL(RSQRT(ADD(v, ε)), γ)           y = ADD(MUL(x, s), MUL(n, s))
/// ```
///
/// The planner runs it as one ``LayerNormalizationOperation`` at the first MEAN. Every operator,
/// constant, axis and shape must be exactly this; anything else stays as plain operators.
struct LayerNormalizationFusion {
    var input: Int
    var output: Int
    var epsilon: Float
    /// One scale per channel (the last axis).
    var gamma: [Float]
    /// The operators the fusion replaces, the first MEAN included.
    var nodes: [Int]

    /// The fusion whose first MEAN is `nodes[first]`, or nil when the operators around it differ
    /// from the pattern in any way. `readers` lists the operators that read each tensor.
    init?(first: Int, graph: Graph, nodes: [GraphOperator], readers: [[Int]], outputs: Set<Int>) {
        let tensors = graph.tensors
        /// The operators reading `tensor`, when it is an intermediate (not a model output).
        func consumers(_ tensor: Int) -> [Int]? { outputs.contains(tensor) ? nil : readers[tensor] }
        /// The one operator reading `tensor`, with `code`, plain arithmetic options when it has
        /// options, and one output of `shape`.
        func only(_ tensor: Int, _ code: BuiltinOperator, shape: [Int]) -> Int? {
            guard let readers = consumers(tensor), readers.count == 1 else { return nil }
            return check(readers[0], code, shape: shape)
        }
        func check(_ index: Int, _ code: BuiltinOperator, shape: [Int]) -> Int? {
            let node = nodes[index]
            guard node.code == code, node.outputs.count == 1, node.inputs.allSatisfy({ $0 >= 0 }),
                  tensors[node.outputs[0]].shape == shape
            else { return nil }
            switch node.options {
            case .arithmetic(let activation): return activation == .none ? index : nil
            case .none: return index
            default: return nil
            }
        }
        /// The other input of a two-input operator that reads `tensor`.
        func partner(_ index: Int, of tensor: Int) -> Int? {
            let inputs = nodes[index].inputs
            guard inputs.count == 2 else { return nil }
            return inputs[0] == tensor ? inputs[1] : inputs[1] == tensor ? inputs[0] : nil
        }
        /// Whether `nodes[index]` is a MEAN over the last axis of a tensor of `shape`, keeping dims.
        func lastAxisMean(_ index: Int, shape: [Int]) -> Bool {
            let node = nodes[index]
            guard node.code == .mean, node.inputs.count == 2, node.outputs.count == 1, node.inputs[1] >= 0,
                  case .reducer(keepDimensions: true) = node.options,
                  let axes = tensors[node.inputs[1]].constant?.integers, axes.count == 1,
                  axes[0] == shape.count - 1 || axes[0] == -1
            else { return false }
            return tensors[node.outputs[0]].shape == Array(shape.dropLast()) + [1]
        }

        let x = nodes[first].inputs.first ?? -1
        guard x >= 0, tensors[x].constant == nil, tensors[x].type == .float32 else { return nil }
        let shape = tensors[x].shape
        guard let channels = shape.last, channels > 0, lastAxisMean(first, shape: shape) else { return nil }
        let rowShape = Array(shape.dropLast()) + [1]
        let mean = nodes[first].outputs[0]

        // The mean feeds exactly a NEG and a SQUARED_DIFFERENCE with x.
        guard let meanReaders = consumers(mean), meanReaders.count == 2 else { return nil }
        let negate = meanReaders.first { nodes[$0].code == .neg }, difference = meanReaders.first { nodes[$0].code == .squaredDifference }
        guard let negate, let difference, check(negate, .neg, shape: rowShape) != nil, nodes[negate].inputs == [mean],
              check(difference, .squaredDifference, shape: shape) != nil, partner(difference, of: mean) == x
        else { return nil }

        // Variance, ε, reciprocal square root.
        let squares = nodes[difference].outputs[0]
        guard let variance = consumers(squares).flatMap({ $0.count == 1 ? $0[0] : nil }),
              lastAxisMean(variance, shape: shape), nodes[variance].inputs[0] == squares,
              let addEpsilon = only(nodes[variance].outputs[0], .add, shape: rowShape),
              let epsilonTensor = partner(addEpsilon, of: nodes[variance].outputs[0]),
              let epsilon = tensors[epsilonTensor].constant?.floats, epsilon.count == 1,
              tensors[epsilonTensor].shape.count <= shape.count,
              let root = only(nodes[addEpsilon].outputs[0], .rsqrt, shape: rowShape)
        else { return nil }

        // s = r·γ, then x·s + n·s.
        guard let scale = only(nodes[root].outputs[0], .mul, shape: shape),
              let gammaTensor = partner(scale, of: nodes[root].outputs[0]),
              let gamma = tensors[gammaTensor].constant?.floats, gamma.count == channels,
              tensors[gammaTensor].shape.last == channels, tensors[gammaTensor].shape.count <= shape.count
        else { return nil }
        let s = nodes[scale].outputs[0]
        guard let scaleReaders = consumers(s), scaleReaders.count == 2,
              scaleReaders.allSatisfy({ check($0, .mul, shape: shape) != nil })
        else { return nil }
        let scaledInput = scaleReaders.first { partner($0, of: s) == x }
        let scaledMean = scaleReaders.first { partner($0, of: s) == nodes[negate].outputs[0] }
        guard let scaledInput, let scaledMean, scaledInput != scaledMean,
              let sum = only(nodes[scaledInput].outputs[0], .add, shape: shape),
              consumers(nodes[scaledMean].outputs[0]) == [sum],
              partner(sum, of: nodes[scaledInput].outputs[0]) == nodes[scaledMean].outputs[0],
              consumers(nodes[negate].outputs[0]) == [scaledMean]
        else { return nil }

        input = x
        output = nodes[sum].outputs[0]
        self.epsilon = epsilon[0]
        self.gamma = gamma
        self.nodes = [first, negate, difference, variance, addEpsilon, root, scale, scaledInput, scaledMean, sum]
    }
}
