/// Computes only the leading rows of a tensor that anything reads.
///
/// The blendshape model keeps one token of its last MLP-Mixer block (a STRIDED_SLICE of the
/// first rows), yet the block's layer normalisation and channel MLP run on all 97 tokens.
/// Walking the graph backwards, each tensor gets the number of leading rows its readers need;
/// an operator that works row by row (a 1×1 convolution over a row of pixels, elementwise
/// arithmetic, a reduction over the last axis) and whose output is needed only in part is
/// rewritten to compute that many rows. Its other operands are read through views: tensors
/// that share the first rows of a full tensor's memory.
///
/// Rows are the second-to-last axis of a tensor whose earlier axes are all 1, so the first rows
/// are a prefix of its memory. Model outputs, and tensors read by anything else, stay whole.
enum RowNarrowing {
    /// Rewrites `graph` and returns the views it added: view tensor → the tensor it is a prefix of.
    static func apply(to graph: inout Graph, skipped: [Bool]) -> [Int: Int] {
        let whole = Int.max
        var demand = Array(repeating: 0, count: graph.tensors.count)
        for output in graph.outputs { demand[output] = whole }
        /// Operator → (rows it computes, positions of its inputs read row by row).
        var narrowed: [Int: (rows: Int, inputs: [Int])] = [:]
        for (index, node) in graph.operators.enumerated().reversed() where !skipped[index] {
            if let positions = rowInputs(node, graph), let rows = rows(graph.tensors[node.outputs[0]].shape) {
                let needed = min(max(demand[node.outputs[0]], 1), rows)
                if needed < rows { narrowed[index] = (needed, positions) }
                for (position, input) in node.inputs.enumerated() where input >= 0 {
                    demand[input] = max(demand[input], positions.contains(position) ? needed : whole)
                }
            } else if let needed = sliceRows(node, graph) {
                demand[node.inputs[0]] = max(demand[node.inputs[0]], needed)
            } else {
                for input in node.inputs where input >= 0 { demand[input] = whole }
            }
        }

        for (index, (rows, _)) in narrowed {
            let output = graph.operators[index].outputs[0]
            graph.tensors[output].shape[graph.tensors[output].shape.count - 2] = rows
        }
        var views: [Int: Int] = [:]
        var existing: [[Int]: Int] = [:]
        for (index, (rows, positions)) in narrowed.sorted(by: { $0.key < $1.key }) {
            for position in positions {
                let input = graph.operators[index].inputs[position]
                var shape = graph.tensors[input].shape
                guard shape[shape.count - 2] != rows else { continue }
                let view: Int
                if let made = existing[[input, rows]] {
                    view = made
                } else {
                    shape[shape.count - 2] = rows
                    view = graph.tensors.count
                    graph.tensors.append(GraphTensor(
                        name: "\(graph.tensors[input].name)[..<\(rows)]", shape: shape, type: graph.tensors[input].type))
                    existing[[input, rows]] = view
                    views[view] = input
                }
                graph.operators[index].inputs[position] = view
            }
        }
        return views
    }

    /// Rows of a tensor of `shape` whose axes before the second-to-last are all 1.
    private static func rows(_ shape: [Int]) -> Int? {
        shape.count >= 2 && shape.dropLast(2).allSatisfy({ $0 == 1 }) ? shape[shape.count - 2] : nil
    }

    /// Positions of the inputs `node` reads row by row (output row i from their row i), when
    /// computing fewer output rows only needs fewer rows of those inputs; nil for any other operator.
    private static func rowInputs(_ node: GraphOperator, _ graph: Graph) -> [Int]? {
        guard node.outputs.count == 1, node.inputs.allSatisfy({ $0 >= 0 }) else { return nil }
        let shape = graph.tensors[node.outputs[0]].shape
        guard let rows = rows(shape), rows > 1 else { return nil }
        /// Whether `tensor` is an activation with the output's rows.
        func rowsAlike(_ tensor: Int) -> Bool {
            graph.tensors[tensor].constant == nil && self.rows(graph.tensors[tensor].shape) == rows
        }
        switch node.code {
        case .conv2D:
            // 1×1, stride 1, over a single row of pixels: each output pixel from its input pixel.
            guard node.inputs.count >= 2, case .convolution(let options) = node.options, options.strideX == 1, options.strideY == 1,
                  shape.count == 4, graph.tensors[node.inputs[0]].shape.count == 4, rowsAlike(node.inputs[0]),
                  graph.tensors[node.inputs[1]].shape.count == 4, graph.tensors[node.inputs[1]].shape[1 ... 2] == [1, 1]
            else { return nil }
            return [0]
        case .add, .sub, .mul, .div, .squaredDifference, .prelu:
            guard node.inputs.count == 2 else { return nil }
            var positions: [Int] = []
            for (position, input) in node.inputs.enumerated() {
                let operand = graph.tensors[input].shape
                guard operand.count <= shape.count else { return nil }
                let padded = Array(repeating: 1, count: shape.count - operand.count) + operand
                if padded[shape.count - 2] == 1 { continue }
                guard rowsAlike(input) else { return nil }
                positions.append(position)
            }
            return positions
        case .neg, .sqrt, .rsqrt, .logistic, .relu, .relu6:
            guard node.inputs.count == 1, graph.tensors[node.inputs[0]].shape == shape, rowsAlike(node.inputs[0]) else { return nil }
            return [0]
        case .mean, .sum:
            // Over the last axis only, keeping it.
            guard node.inputs.count == 2, case .reducer(keepDimensions: true) = node.options,
                  let axes = graph.tensors[node.inputs[1]].constant?.integers, !axes.isEmpty,
                  axes.allSatisfy({ $0 == shape.count - 1 || $0 == -1 }),
                  graph.tensors[node.inputs[0]].shape.count == shape.count, rowsAlike(node.inputs[0])
            else { return nil }
            return [0]
        default:
            return nil
        }
    }

    /// Leading rows a STRIDED_SLICE reads from its input, when it slices the row axis forward from
    /// non-negative bounds: then the same slice of fewer (but enough) rows gives the same values.
    private static func sliceRows(_ node: GraphOperator, _ graph: Graph) -> Int? {
        guard node.code == .stridedSlice, node.inputs.count == 4, node.outputs.count == 1, node.inputs.allSatisfy({ $0 >= 0 }),
              case .stridedSlice(let options) = node.options, options.ellipsisMask == 0, options.newAxisMask == 0, !options.offset,
              let rows = rows(graph.tensors[node.inputs[0]].shape),
              let begins = graph.tensors[node.inputs[1]].constant?.integers,
              let ends = graph.tensors[node.inputs[2]].constant?.integers,
              let steps = graph.tensors[node.inputs[3]].constant?.integers
        else { return nil }
        let axis = graph.tensors[node.inputs[0]].shape.count - 2
        guard begins.count == axis + 2, ends.count == axis + 2, steps.count == axis + 2 else { return nil }
        let masked = { (mask: Int) in mask >> axis & 1 == 1 }
        if masked(options.shrinkAxisMask) {
            return (0 ..< rows).contains(begins[axis]) ? begins[axis] + 1 : nil
        }
        let begin = masked(options.beginMask) ? 0 : begins[axis]
        let end = masked(options.endMask) ? rows : ends[axis]
        let step = steps[axis]
        guard begin >= 0, end >= 0, step > 0, step <= 1 << 30 else { return nil }
        let (first, last) = (min(begin, rows), min(end, rows))
        let count = max(0, (last - first + step - 1) / step)
        return count == 0 ? 0 : first + (count - 1) * step + 1
    }
}
