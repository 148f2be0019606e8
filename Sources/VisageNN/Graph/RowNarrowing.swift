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
/// A TRANSPOSE of the last two axes turns rows into the channels of its input: when that input
/// is a convolution's output read by nothing else, the convolution computes only those first
/// output channels (the last block's token-mixing convolution: 2 of 97).
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
        /// TRANSPOSE → (the convolution before it, the channels it computes).
        var transposed: [Int: (convolution: Int, channels: Int)] = [:]
        var readers = Array(repeating: 0, count: graph.tensors.count)
        var producer = [Int?](repeating: nil, count: graph.tensors.count)
        for (index, node) in graph.operators.enumerated() where !skipped[index] {
            for input in Set(node.inputs) where input >= 0 { readers[input] += 1 }
            for output in node.outputs { producer[output] = index }
        }
        for (index, node) in graph.operators.enumerated().reversed() where !skipped[index] {
            if let convolution = transposedConvolution(node, graph, producer: producer, readers: readers, demand: demand) {
                transposed[index] = convolution
                demand[node.inputs[0]] = whole
            } else if let positions = rowInputs(node, graph), let rows = rows(graph.tensors[node.outputs[0]].shape) {
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
        for (index, (convolution, channels)) in transposed {
            let output = graph.operators[index].outputs[0]
            graph.tensors[output].shape[graph.tensors[output].shape.count - 2] = channels
            let node = graph.operators[convolution]
            graph.tensors[node.outputs[0]].shape[3] = channels
            for position in 1 ..< min(node.inputs.count, 3) where node.inputs[position] >= 0 {
                let tensor = graph.tensors[node.inputs[position]]
                guard let values = tensor.constant?.floats else { continue }
                graph.operators[convolution].inputs[position] = graph.tensors.count
                graph.tensors.append(GraphTensor(
                    name: "\(tensor.name)[..<\(channels)]", shape: [channels] + tensor.shape.dropFirst(), type: tensor.type,
                    constant: .floats(Array(values.prefix(values.count / tensor.shape[0] * channels)))))
            }
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

    /// The convolution before `node` and how many of its output channels to compute, when `node`
    /// swaps the last two axes, fewer rows of its output are read than it has, and it alone reads
    /// the convolution's output.
    private static func transposedConvolution(
        _ node: GraphOperator, _ graph: Graph, producer: [Int?], readers: [Int], demand: [Int]
    ) -> (convolution: Int, channels: Int)? {
        guard node.code == .transpose, node.inputs.count == 2, node.outputs.count == 1, node.inputs.allSatisfy({ $0 >= 0 }),
              let rows = rows(graph.tensors[node.outputs[0]].shape),
              let permutation = graph.tensors[node.inputs[1]].constant?.integers
        else { return nil }
        let input = node.inputs[0], rank = graph.tensors[input].shape.count
        let channels = min(max(demand[node.outputs[0]], 1), rows)
        guard channels < rows, rank == 4, permutation == [0, 1, 3, 2], readers[input] == 1, !graph.outputs.contains(input),
              let convolution = producer[input], graph.operators[convolution].code == .conv2D
        else { return nil }
        let convolutionNode = graph.operators[convolution]
        guard convolutionNode.inputs.count >= 2, convolutionNode.inputs.count <= 3, convolutionNode.outputs == [input],
              graph.tensors[input].shape[3] == rows
        else { return nil }
        // Filters [out, h, w, in] and the bias [out], both constants with one entry per output channel.
        for position in 1 ..< convolutionNode.inputs.count {
            let tensor = convolutionNode.inputs[position]
            if position == 2, tensor < 0 { continue }
            guard tensor >= 0, let values = graph.tensors[tensor].constant?.floats, graph.tensors[tensor].shape.first == rows,
                  graph.tensors[tensor].shape.count == (position == 1 ? 4 : 1), values.count == graph.tensors[tensor].elementCount
            else { return nil }
        }
        return (convolution, channels)
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
