/// Lowers an imported ``Graph`` into an ``ExecutionPlan``.
///
/// 1. Checks the graph runs in order: every tensor is written once, before it is read.
/// 2. Folds constants: DENSIFY of a constant (sparse weights, already made dense by the
///    importer), DEQUANTIZE of a constant (float16 weights) and RESHAPE of a constant become
///    constants at load.
/// 3. Narrows row-by-row operators to the leading rows anything reads (``RowNarrowing``).
/// 4. Fuses where it saves a pass over memory: a layer normalisation spelled out as ten operators
///    into one (``LayerNormalizationFusion``); a spatial PAD into the next convolution's implicit
///    padding; a RELU/RELU6 into the producing convolution, arithmetic or pooling operator's
///    clamp; a per-channel PRELU into the convolution's epilogue or after a residual ADD; a
///    residual ADD (with its activation or PRELU) into the convolution or RESIZE_BILINEAR that
///    produces one operand.
/// 5. Builds each operation, which checks its shapes against the ones the file declares.
/// 6. Makes RESHAPE free (its output shares its input's memory), then assigns arena offsets
///    greedily by size among buffers whose lifetimes overlap.
enum Planner {
    static func plan(_ source: Graph) throws(ModelError) -> ExecutionPlan {
        var graph = source
        try checkOrder(graph)
        var skipped = Array(repeating: false, count: graph.operators.count)

        // Constant folding.
        for (index, node) in graph.operators.enumerated() where [.dequantize, .densify, .reshape].contains(node.code) {
            guard let input = node.inputs.first, input >= 0, let output = node.outputs.first, node.outputs.count == 1 else {
                throw .modelInvalid(reason: "\(node.code) (operator \(index)) needs an input and one output")
            }
            guard graph.tensors[input].constant != nil else {
                if node.code != .reshape {
                    throw .unsupportedOption(operator: "\(node.code) (operator \(index))", reason: "a run-time input; Visage folds it for constants at load")
                }
                continue
            }
            guard graph.tensors[input].elementCount == graph.tensors[output].elementCount else {
                throw .modelInvalid(reason: "\(node.code) (operator \(index)) turns \(graph.tensors[input].shape) into \(graph.tensors[output].shape)")
            }
            graph.tensors[output].constant = graph.tensors[input].constant
            skipped[index] = true
        }

        let views = RowNarrowing.apply(to: &graph, skipped: skipped)
        let tensorCount = graph.tensors.count
        let nodes = graph.operators

        // Who reads each tensor. A read through a narrowed view reads its base tensor too, so no
        // fusion takes the base for a tensor with one reader and leaves it unwritten.
        var consumers = Array(repeating: [Int](), count: tensorCount)
        for (index, node) in nodes.enumerated() where !skipped[index] {
            for input in Set(node.inputs) where input >= 0 {
                consumers[input].append(index)
                if let base = views[input], !consumers[base].contains(index) { consumers[base].append(index) }
            }
        }
        let isOutput = Set(graph.outputs)
        let producer = producers(nodes, tensorCount: tensorCount)
        /// The operator that alone reads `tensor`, when the tensor is not a model output.
        func soleConsumer(_ tensor: Int) -> Int? {
            consumers[tensor].count == 1 && !isOutput.contains(tensor) ? consumers[tensor][0] : nil
        }

        // Fusions, decided before building so fused operators can be skipped.
        var layerNormalizations: [Int: LayerNormalizationFusion] = [:]
        for (index, node) in nodes.enumerated() where node.code == .mean && !skipped[index] {
            guard let fusion = LayerNormalizationFusion(first: index, graph: graph, nodes: nodes, readers: consumers, outputs: isOutput),
                  fusion.nodes.allSatisfy({ !skipped[$0] })
            else { continue }
            layerNormalizations[index] = fusion
            for node in fusion.nodes.dropFirst() { skipped[node] = true }
        }
        var fusions: [Int: ConvolutionFusion] = [:]
        var absorbed: [Int: (consumer: Int, activation: Activation, slopes: [Float]?)] = [:]
        /// Convolutions and resizes moved to the position of the residual ADD they absorbed: ADD index → their index.
        var runAt: [Int: Int] = [:]
        /// RESIZE_BILINEAR → the residual its ADD adds and the ADD's output.
        var resizedResiduals: [Int: (residual: Int, output: Int)] = [:]
        for (index, node) in nodes.enumerated() where !skipped[index] {
            switch node.code {
            case .conv2D, .depthwiseConv2D:
                guard node.inputs.count >= 2, node.outputs.count == 1, node.inputs[0] >= 0,
                      case .convolution(let options) = node.options
                else { continue }
                var fusion = ConvolutionFusion(input: node.inputs[0], output: node.outputs[0], epilogue: .init())
                if let pad = producer[fusion.input], !skipped[pad], nodes[pad].code == .pad, soleConsumer(fusion.input) == index,
                   let padding = spatialPadding(graph, nodes[pad]) {
                    (fusion.padTop, fusion.padBottom, fusion.padLeft, fusion.padRight) = padding
                    fusion.input = nodes[pad].inputs[0]
                    skipped[pad] = true
                }
                var activation = options.activation
                if let next = soleConsumer(fusion.output), !skipped[next] {
                    if let merged = clamp(nodes[next], after: activation) {
                        activation = merged
                        fusion.output = nodes[next].outputs[0]
                        skipped[next] = true
                    } else if activation == .none, let slopes = preluSlopes(graph, nodes[next], input: fusion.output) {
                        fusion.epilogue.preluSlopes = slopes
                        fusion.output = nodes[next].outputs[0]
                        skipped[next] = true
                    }
                }
                (fusion.epilogue.min, fusion.epilogue.max) = activation.bounds
                if node.code == .conv2D, activation == .none, fusion.epilogue.preluSlopes == nil,
                   let add = soleConsumer(fusion.output), !skipped[add], nodes[add].code == .add,
                   case .arithmetic(var residualActivation) = nodes[add].options,
                   nodes[add].inputs.count == 2, nodes[add].outputs.count == 1,
                   let residual = nodes[add].inputs.first(where: { $0 != fusion.output }), residual >= 0,
                   nodes[add].inputs.contains(fusion.output),
                   graph.tensors[residual].shape == graph.tensors[fusion.output].shape,
                   graph.tensors[nodes[add].outputs[0]].shape == graph.tensors[fusion.output].shape {
                    // conv → ADD(residual) [→ RELU | PRELU]: add the residual as each band is written,
                    // reading past a PAD that only appends zero channels to it. The fused operation runs
                    // where the ADD was, when the residual is sure to exist.
                    fusion.residual = residual
                    runAt[add] = index
                    if let pad = producer[residual], !skipped[pad], nodes[pad].code == .pad, soleConsumer(residual) == add,
                       let source = trailingChannelPadSource(graph, nodes[pad]) {
                        fusion.residual = source
                        skipped[pad] = true
                    }
                    fusion.output = nodes[add].outputs[0]
                    skipped[add] = true
                    if let next = soleConsumer(fusion.output), !skipped[next] {
                        if let merged = clamp(nodes[next], after: residualActivation) {
                            residualActivation = merged
                            fusion.output = nodes[next].outputs[0]
                            skipped[next] = true
                        } else if residualActivation == .none, let slopes = preluSlopes(graph, nodes[next], input: fusion.output) {
                            fusion.residualEpilogue.preluSlopes = slopes
                            fusion.output = nodes[next].outputs[0]
                            skipped[next] = true
                        }
                    }
                    (fusion.residualEpilogue.min, fusion.residualEpilogue.max) = residualActivation.bounds
                }
                fusions[index] = fusion
            case .resizeBilinear:
                // RESIZE_BILINEAR → ADD(residual): add as each value is written, where the ADD was
                // (when the residual is sure to exist).
                guard node.outputs.count == 1, let add = soleConsumer(node.outputs[0]), !skipped[add], nodes[add].code == .add,
                      case .arithmetic(.none) = nodes[add].options, nodes[add].inputs.count == 2, nodes[add].outputs.count == 1,
                      nodes[add].inputs.contains(node.outputs[0]),
                      let residual = nodes[add].inputs.first(where: { $0 != node.outputs[0] }), residual >= 0,
                      graph.tensors[residual].shape == graph.tensors[node.outputs[0]].shape
                else { continue }
                resizedResiduals[index] = (residual, nodes[add].outputs[0])
                runAt[add] = index
                skipped[add] = true
            case .add, .sub, .mul, .maxPool2D:
                guard node.outputs.count == 1 else { continue }
                let own: Activation
                switch node.options {
                case .arithmetic(let activation): own = activation
                case .pool(let options): own = options.activation
                default: continue
                }
                guard let next = soleConsumer(node.outputs[0]), !skipped[next] else { continue }
                if let merged = clamp(nodes[next], after: own) {
                    absorbed[index] = (next, merged, nil)
                    skipped[next] = true
                } else if node.code == .add, own == .none, let slopes = preluSlopes(graph, nodes[next], input: node.outputs[0]) {
                    absorbed[index] = (next, own, slopes)
                    skipped[next] = true
                }
            default:
                break
            }
        }

        // Operations.
        var operations: [any Operation] = []
        var alias = Array(0 ..< tensorCount)
        let moved = Set(runAt.values)
        for (position, original) in nodes.enumerated() {
            guard let index = runAt[position] ?? (skipped[position] || moved.contains(position) ? nil : position) else { continue }
            let node = index == position ? original : nodes[index]
            let context = OperatorContext(graph: graph, index: index, node: node)
            let fusedOutput = absorbed[index].map { nodes[$0.consumer].outputs[0] }
            let fusedActivation = absorbed[index]?.activation
            switch node.code {
            case .conv2D:
                let fusion = if let fused = fusions[index] { fused } else { try unfused(context) }
                operations.append(try ConvolutionOperation(context, fusion: fusion))
            case .depthwiseConv2D:
                let fusion = if let fused = fusions[index] { fused } else { try unfused(context) }
                operations.append(try DepthwiseConvolutionOperation(context, fusion: fusion))
            case .add, .sub, .mul, .div:
                guard case .arithmetic(let own) = node.options else { throw context.invalid("has no arithmetic options") }
                let function: BinaryOperation.Function = switch node.code {
                case .add: .add
                case .sub: .subtract
                case .mul: .multiply
                default: .divide
                }
                operations.append(try BinaryOperation(
                    context, function: function, activation: fusedActivation ?? own, output: fusedOutput, slopes: absorbed[index]?.slopes))
            case .squaredDifference:
                operations.append(try BinaryOperation(context, function: .squaredDifference, activation: .none))
            case .prelu:
                operations.append(try BinaryOperation(context, function: .prelu, activation: .none))
            case .relu, .relu6:
                let (minimum, maximum) = (node.code == .relu ? Activation.relu : .relu6).bounds
                operations.append(try UnaryOperation(context, function: .clamp(min: minimum, max: maximum)))
            case .neg: operations.append(try UnaryOperation(context, function: .negate))
            case .sqrt: operations.append(try UnaryOperation(context, function: .squareRoot))
            case .rsqrt: operations.append(try UnaryOperation(context, function: .reciprocalSquareRoot))
            case .logistic: operations.append(try UnaryOperation(context, function: .logistic))
            case .mean:
                if let fusion = layerNormalizations[index] {
                    operations.append(try LayerNormalizationOperation(context, fusion: fusion))
                } else {
                    operations.append(try ReductionOperation(context, mean: true))
                }
            case .sum: operations.append(try ReductionOperation(context, mean: false))
            case .maxPool2D: operations.append(try MaxPoolOperation(context, activation: fusedActivation, output: fusedOutput))
            case .pad: operations.append(try PadOperation(context))
            case .concatenation: operations.append(try ConcatenationOperation(context))
            case .transpose: operations.append(try TransposeOperation(context))
            case .stridedSlice: operations.append(try StridedSliceOperation(context))
            case .depthToSpace: operations.append(try DepthToSpaceOperation(context))
            case .resizeBilinear:
                let fused = resizedResiduals[index]
                operations.append(try ResizeBilinearOperation(context, residual: fused?.residual, output: fused?.output))
            case .reshape:
                try context.expect(inputs: 1, outputs: 1)
                let input = try context.input(0), output = try context.output()
                _ = try context.floatShape(input)
                guard graph.tensors[input].elementCount == graph.tensors[output].elementCount else {
                    throw context.invalid("cannot reshape \(graph.tensors[input].shape) into \(graph.tensors[output].shape)")
                }
                alias[output] = alias[input]
            default:
                throw .unsupportedOperator(name: node.code.description)
            }
        }
        for (view, tensor) in views { alias[view] = alias[tensor] }
        return try place(graph, operations: operations, alias: alias, weights: source.tensors.reduce(0) { $0 + ($1.constant?.floats?.count ?? 0) })
    }

    /// A convolution's own input and output with nothing fused.
    private static func unfused(_ context: OperatorContext) throws(ModelError) -> ConvolutionFusion {
        guard case .convolution(let options) = context.node.options else { throw context.invalid("has no convolution options") }
        let bounds = options.activation.bounds
        return ConvolutionFusion(input: try context.input(0), output: try context.output(), epilogue: .init(min: bounds.min, max: bounds.max))
    }

    /// Throws unless each tensor is written by one operator, after its inputs are available.
    private static func checkOrder(_ graph: Graph) throws(ModelError) {
        var available = Array(repeating: false, count: graph.tensors.count)
        for (index, tensor) in graph.tensors.enumerated() where tensor.constant != nil { available[index] = true }
        for input in graph.inputs {
            guard graph.tensors[input].constant == nil else {
                throw .modelInvalid(reason: "model input \(graph.tensors[input].name) is a constant")
            }
            guard graph.tensors[input].type == .float32 else {
                throw .unsupportedOption(operator: "model input \(graph.tensors[input].name)", reason: "type \(graph.tensors[input].type); Visage takes float32")
            }
            available[input] = true
        }
        for (index, node) in graph.operators.enumerated() {
            for input in node.inputs where input >= 0 && !available[input] {
                throw .modelInvalid(reason: "operator \(index) (\(node.code)) reads tensor \(graph.tensors[input].name) before anything writes it")
            }
            for output in node.outputs {
                guard !available[output] else {
                    throw .modelInvalid(reason: "operator \(index) (\(node.code)) writes tensor \(graph.tensors[output].name), which already has a value")
                }
                available[output] = true
            }
        }
        for output in graph.outputs where !available[output] {
            throw .modelInvalid(reason: "model output \(graph.tensors[output].name) is never written")
        }
    }

    private static func producers(_ nodes: [GraphOperator], tensorCount: Int) -> [Int?] {
        var producer = [Int?](repeating: nil, count: tensorCount)
        for (index, node) in nodes.enumerated() {
            for output in node.outputs { producer[output] = index }
        }
        return producer
    }

    /// The activation equal to `activation` followed by `node`, when `node` is a clamp.
    private static func clamp(_ node: GraphOperator, after activation: Activation) -> Activation? {
        guard node.outputs.count == 1, node.inputs.count == 1 else { return nil }
        let next: Activation
        switch node.code {
        case .relu: next = .relu
        case .relu6: next = .relu6
        default: return nil
        }
        switch (activation, next) {
        case (.none, _), (.relu, .relu): return next
        case (.relu, .relu6), (.relu6, _): return .relu6
        default: return nil
        }
    }

    /// The slopes of a PRELU whose slopes vary by channel only, applied to `input`.
    private static func preluSlopes(_ graph: Graph, _ node: GraphOperator, input: Int) -> [Float]? {
        guard node.code == .prelu, node.inputs.count == 2, node.outputs.count == 1, node.inputs[0] == input,
              node.inputs[1] >= 0, let slopes = graph.tensors[node.inputs[1]].constant?.floats,
              let channels = graph.tensors[input].shape.last, slopes.count == channels,
              graph.tensors[node.inputs[1]].shape.dropLast().allSatisfy({ $0 == 1 }),
              graph.tensors[node.outputs[0]].shape == graph.tensors[input].shape
        else { return nil }
        return slopes
    }

    /// The input of a PAD that only appends zero channels to an NHWC tensor.
    private static func trailingChannelPadSource(_ graph: Graph, _ node: GraphOperator) -> Int? {
        guard node.inputs.count == 2, node.outputs.count == 1, node.inputs.allSatisfy({ $0 >= 0 }),
              graph.tensors[node.inputs[0]].shape.count == 4, graph.tensors[node.inputs[0]].constant == nil,
              let values = graph.tensors[node.inputs[1]].constant?.integers, values.count == 8,
              values[0 ..< 7].allSatisfy({ $0 == 0 }), values[7] >= 0,
              graph.tensors[node.outputs[0]].shape == Array(graph.tensors[node.inputs[0]].shape[0 ..< 3])
                  + [graph.tensors[node.inputs[0]].shape[3] + values[7]]
        else { return nil }
        return node.inputs[0]
    }

    /// (top, bottom, left, right) of a PAD that pads only the height and width of an NHWC tensor.
    private static func spatialPadding(_ graph: Graph, _ node: GraphOperator) -> (Int, Int, Int, Int)? {
        guard node.inputs.count == 2, node.outputs.count == 1, node.inputs.allSatisfy({ $0 >= 0 }),
              graph.tensors[node.inputs[0]].shape.count == 4,
              let values = graph.tensors[node.inputs[1]].constant?.integers, values.count == 8,
              values.allSatisfy({ $0 >= 0 && $0 <= 1 << 16 }), values[0] == 0, values[1] == 0, values[6] == 0, values[7] == 0
        else { return nil }
        return (values[2], values[3], values[4], values[5])
    }

    /// Assigns every run-time tensor its memory: arena offsets by liveness, constants into the pool.
    private static func place(
        _ graph: Graph, operations: [any Operation], alias: [Int], weights: Int
    ) throws(ModelError) -> ExecutionPlan {
        let tensorCount = graph.tensors.count
        let steps = operations.count
        var placements = Array(repeating: TensorPlacement.none, count: tensorCount)
        var constants: [Float] = []
        var first = Array(repeating: Int.max, count: tensorCount)
        var last = Array(repeating: -1, count: tensorCount)
        /// Marks `tensor` (through its alias root) as used at `step`, or places it in the constant pool.
        func use(_ tensor: Int, at step: Int) throws(ModelError) {
            let root = alias[tensor]
            if let values = graph.tensors[root].constant {
                guard case .none = placements[root] else { return }
                guard let floats = values.floats else {
                    throw .unsupportedOption(operator: "tensor \(graph.tensors[root].name)", reason: "integer values read at run time")
                }
                placements[root] = .constant(constants.count)
                constants += floats
                constants += Array(repeating: 0, count: (16 - floats.count % 16) % 16)
                return
            }
            first[root] = min(first[root], step)
            last[root] = max(last[root], step)
        }
        // Model inputs stay intact for the whole run, so invoking again without rewriting them is well defined.
        for input in graph.inputs {
            try use(input, at: 0)
            try use(input, at: steps)
        }
        for (step, operation) in operations.enumerated() {
            for tensor in operation.reads { try use(tensor, at: step) }
            for tensor in operation.writes { try use(tensor, at: step) }
        }
        for output in graph.outputs { try use(output, at: steps) }

        // Greedy by size: place the largest buffers first, each at the lowest offset that does not
        // overlap a placed buffer alive at the same time.
        let buffers = (0 ..< tensorCount).filter { last[$0] >= 0 && alias[$0] == $0 }
        func floats(_ tensor: Int) -> Int { (graph.tensors[tensor].elementCount + 15) / 16 * 16 }
        var placed: [(offset: Int, size: Int, tensor: Int)] = []
        var arenaCount = 0
        for tensor in buffers.sorted(by: { (floats($0), $1) > (floats($1), $0) }) {
            let size = floats(tensor)
            let conflicts = placed.filter { first[$0.tensor] <= last[tensor] && first[tensor] <= last[$0.tensor] }
                .sorted { $0.offset < $1.offset }
            var offset = 0
            for other in conflicts where offset + size > other.offset {
                offset = max(offset, other.offset + other.size)
            }
            placed.append((offset, size, tensor))
            placements[tensor] = .arena(offset)
            arenaCount = max(arenaCount, offset + size)
            guard arenaCount * 4 <= graph.activationByteLimit else {
                throw .modelInvalid(reason: "the activation arena reaches \(arenaCount * 4) bytes at tensor "
                    + "\(graph.tensors[tensor].name) (\(size * 4) bytes), over the model's \(graph.activationByteLimit)-byte limit")
            }
        }
        for tensor in 0 ..< tensorCount where alias[tensor] != tensor {
            placements[tensor] = placements[alias[tensor]]
        }

        var peak = 0
        for step in 0 ... steps {
            peak = max(peak, buffers.filter { first[$0] <= step && step <= last[$0] }.reduce(0) { $0 + floats($1) })
        }
        let memory = MemoryReport(
            arenaBytes: arenaCount * 4, weightBytes: weights * 4, peakLiveActivationBytes: peak * 4,
            activationBytes: buffers.reduce(0) { $0 + floats($1) } * 4, arenaLimitBytes: graph.activationByteLimit)
        return ExecutionPlan(operations: operations, placements: placements, arenaCount: arenaCount, constants: constants, memory: memory,
            shapes: graph.tensors.map(\.shape))
    }
}
