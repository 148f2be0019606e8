import Foundation

/// What in a `.tflite` file Visage's engine cannot run, counted over the whole graph before anything
/// is planned, so one error names every missing operator and tensor type at once (loading a ``Model``
/// stops at the first).
public struct ModelSupport: Sendable, Equatable, CustomStringConvertible {
    /// An operator or tensor type and how many times the model uses it.
    public struct Use: Sendable, Equatable, CustomStringConvertible {
        /// TFLite's spelling: `HARD_SWISH`, a custom operator's own name (`Convolution2DTransposeBias`),
        /// or a tensor type (`INT8`).
        public let name: String
        public let count: Int
        /// True for a custom operator (TFLite's `CUSTOM` code with a name).
        public let isCustom: Bool

        public var description: String { "\(isCustom ? "custom " : "")\(name) ×\(count)" }
    }

    /// Operators Visage does not run, most used first.
    public let unsupportedOperators: [Use]
    /// Tensor types Visage does not compute in (activations other than FLOAT32, constants other than
    /// FLOAT32, FLOAT16, INT32, INT64), most used first.
    public let unsupportedTypes: [Use]

    public var isSupported: Bool { unsupportedOperators.isEmpty && unsupportedTypes.isEmpty }

    public var description: String {
        if isSupported { return "every operator and tensor type is supported" }
        var parts: [String] = []
        if !unsupportedOperators.isEmpty {
            parts.append("operators " + unsupportedOperators.map(\.description).joined(separator: ", "))
        }
        if !unsupportedTypes.isEmpty {
            parts.append("tensor types " + unsupportedTypes.map(\.description).joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }

    /// Builtin operators the planner lowers. DEQUANTIZE and DENSIFY count only on a constant (weights).
    static let runnable: Set<BuiltinOperator> = [
        .add, .sub, .mul, .div, .squaredDifference, .prelu, .relu, .relu6, .neg, .sqrt, .rsqrt, .logistic,
        .mean, .sum, .maxPool2D, .pad, .concatenation, .transpose, .stridedSlice, .resizeBilinear, .reshape,
        .conv2D, .depthwiseConv2D, .dequantize, .densify, .depthToSpace,
    ]

    /// Counts what the model at `data` uses that Visage cannot run.
    /// - Throws: ``ModelError/modelInvalid(reason:)`` when the file is not a readable TFLite model.
    public init(data: Data) throws(ModelError) {
        let bytes = [UInt8](data)
        if bytes.count >= 8, bytes[4 ..< 8] != [0x54, 0x46, 0x4c, 0x33] {
            throw .modelInvalid(reason: "the file identifier is not \"TFL3\"; this is not a TFLite model")
        }
        let model = try FlatBuffer(bytes).root()
        var names: [(name: String, custom: Bool)] = []
        if let codes = try model.vector(1, elementSize: 4, "operator codes") {
            for index in 0 ..< codes.count {
                let table = try codes.table(index, "operator code \(index)")
                let code = max(Int32(Int8(bitPattern: try table.uint8(0))), try table.int32(3))
                if code == 32 {
                    names.append((try table.string(1, "custom code") ?? "CUSTOM", true))
                } else {
                    let builtin = BuiltinOperator(rawValue: code)
                    names.append((builtin.description, false))
                }
            }
        }
        guard let subgraphs = try model.vector(2, elementSize: 4, "subgraphs"), subgraphs.count > 0 else {
            throw .modelInvalid(reason: "the model has no subgraph")
        }
        let subgraph = try subgraphs.table(0, "subgraph 0")
        // Per tensor: its type and whether a buffer holds its value.
        var tensors: [(type: TensorType?, constant: Bool)] = []
        if let tables = try subgraph.vector(0, elementSize: 4, "tensors") {
            let buffers = try model.vector(4, elementSize: 4, "buffers")
            for index in 0 ..< tables.count {
                let table = try tables.table(index, "tensor \(index)")
                let buffer = Int(try table.uint32(2))
                var constant = false
                if buffer != 0, let buffers, buffer < buffers.count {
                    let entry = try buffers.table(buffer, "buffer \(buffer)")
                    let inline = try entry.vector(0, elementSize: 1, "data")?.count ?? 0
                    let offset = try entry.uint64(1)
                    constant = inline > 0 || offset > 1
                }
                tensors.append((TensorType(rawValue: try table.uint8(1)), constant))
            }
        }
        var operators: [String: (count: Int, custom: Bool)] = [:]
        if let tables = try subgraph.vector(3, elementSize: 4, "operators") {
            for index in 0 ..< tables.count {
                let table = try tables.table(index, "operator \(index)")
                let codeIndex = Int(try table.uint32(0))
                guard names.indices.contains(codeIndex) else {
                    throw .modelInvalid(reason: "operator \(index) uses operator code \(codeIndex); the model lists \(names.count)")
                }
                let (name, custom) = names[codeIndex]
                var runnable = !custom && Self.runnable.contains(where: { $0.description == name })
                if runnable, name == BuiltinOperator.dequantize.description || name == BuiltinOperator.densify.description {
                    // Visage folds DEQUANTIZE and DENSIFY of weights at load (operators run in order, so a
                    // DENSIFY's output is folded before the DEQUANTIZE that reads it); at run time it cannot.
                    let inputs = try table.vector(1, elementSize: 4, "inputs")?.int32s() ?? []
                    runnable = inputs.first.map { tensors.indices.contains($0) && tensors[$0].constant } ?? false
                    if runnable, let outputs = try table.vector(2, elementSize: 4, "outputs")?.int32s() {
                        for output in outputs where tensors.indices.contains(output) { tensors[output].constant = true }
                    }
                }
                if !runnable { operators[name, default: (0, custom)].count += 1 }
            }
        }
        var types: [String: Int] = [:]
        for tensor in tensors {
            let name = tensor.type.map { "\($0)".uppercased() } ?? "UNKNOWN"
            let allowed: Set<TensorType> = tensor.constant ? [.float32, .float16, .int32, .int64] : [.float32]
            if tensor.type.map({ !allowed.contains($0) }) ?? true { types[name, default: 0] += 1 }
        }
        func sorted(_ uses: [Use]) -> [Use] {
            uses.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
        }
        unsupportedOperators = sorted(operators.map { Use(name: $0.key, count: $0.value.count, isCustom: $0.value.custom) })
        unsupportedTypes = sorted(types.map { Use(name: $0.key, count: $0.value, isCustom: false) })
    }
}
