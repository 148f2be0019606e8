/// Reads a `.tflite` file (TFLite's FlatBuffers schema) into a ``Graph``.
///
/// Field numbers are the schema's (`tensorflow/lite/schema/schema.fbs`): Model{1 operator_codes,
/// 2 subgraphs, 4 buffers}, SubGraph{0 tensors, 1 inputs, 2 outputs, 3 operators, 4 name},
/// Tensor{0 shape, 1 type, 2 buffer, 3 name, 6 sparsity (``SparseFormat``)}, Buffer{0 data, 1 offset, 2 size},
/// Operator{0 opcode_index, 1 inputs, 2 outputs, 3 builtin_options_type, 4 builtin_options},
/// OperatorCode{0 deprecated_builtin_code, 1 custom_code, 3 builtin_code}.
enum TFLiteImporter {
    static func graph(from bytes: [UInt8]) throws(ModelError) -> Graph {
        let file = FlatBuffer(bytes)
        if bytes.count >= 8, bytes[4 ..< 8] != [0x54, 0x46, 0x4c, 0x33] {
            throw .modelInvalid(reason: "the file identifier is not \"TFL3\"; this is not a TFLite model")
        }
        let model = try file.root()
        let version = try model.uint32(0)
        guard version == 3 else {
            throw .modelInvalid(reason: "schema version \(version); Visage reads version 3")
        }
        let codes = try operatorCodes(model)
        guard let subgraphs = try model.vector(2, elementSize: 4, "subgraphs"), subgraphs.count > 0 else {
            throw .modelInvalid(reason: "the model has no subgraph")
        }
        let buffers = try model.vector(4, elementSize: 4, "buffers")
        let subgraph = try subgraphs.table(0, "subgraph 0")
        let activationByteLimit = Graph.activationByteLimit(fileBytes: bytes.count)

        guard let tensorTables = try subgraph.vector(0, elementSize: 4, "tensors") else {
            throw .modelInvalid(reason: "subgraph 0 has no tensors")
        }
        var tensors: [GraphTensor] = []
        tensors.reserveCapacity(tensorTables.count)
        // Sparse constants are made dense at load; together they may take what activations may.
        var densifyBudget = activationByteLimit
        for index in 0 ..< tensorTables.count {
            tensors.append(try tensor(
                try tensorTables.table(index, "tensor \(index)"), index: index, buffers: buffers, file: file,
                activationByteLimit: activationByteLimit, densifyBudget: &densifyBudget))
        }
        let inputs = try indices(subgraph, 1, "inputs", tensorCount: tensors.count, optional: false)
        let outputs = try indices(subgraph, 2, "outputs", tensorCount: tensors.count, optional: false)

        var operators: [GraphOperator] = []
        if let operatorTables = try subgraph.vector(3, elementSize: 4, "operators") {
            operators.reserveCapacity(operatorTables.count)
            for index in 0 ..< operatorTables.count {
                let table = try operatorTables.table(index, "operator \(index)")
                let codeIndex = Int(try table.uint32(0))
                guard codes.indices.contains(codeIndex) else {
                    throw .modelInvalid(reason: "operator \(index) uses operator code \(codeIndex); the model lists \(codes.count)")
                }
                let code = try codes[codeIndex].get()
                operators.append(GraphOperator(
                    code: code,
                    inputs: try indices(table, 1, "inputs", tensorCount: tensors.count, optional: true),
                    outputs: try indices(table, 2, "outputs", tensorCount: tensors.count, optional: false),
                    options: try options(of: table, code: code)))
            }
        }
        return Graph(
            tensors: tensors, operators: operators, inputs: inputs, outputs: outputs, activationByteLimit: activationByteLimit)
    }

    /// The builtin code of each operator code entry; custom operators become a deferred error,
    /// thrown only if an operator uses them.
    private static func operatorCodes(_ model: FlatTable) throws(ModelError) -> [Result<BuiltinOperator, ModelError>] {
        guard let vector = try model.vector(1, elementSize: 4, "operator codes") else { return [] }
        var codes: [Result<BuiltinOperator, ModelError>] = []
        for index in 0 ..< vector.count {
            let table = try vector.table(index, "operator code \(index)")
            // Old files store the code in the byte field 0; new ones in field 3 (and 127 in field 0).
            let code = max(Int32(Int8(bitPattern: try table.uint8(0))), try table.int32(3))
            if code == 32 {
                let name = try table.string(1, "custom code") ?? "?"
                codes.append(.failure(.unsupportedOperator(name: "CUSTOM (\(name))")))
            } else {
                codes.append(.success(BuiltinOperator(rawValue: code)))
            }
        }
        return codes
    }

    private static func indices(
        _ table: FlatTable, _ field: Int, _ what: String, tensorCount: Int, optional: Bool
    ) throws(ModelError) -> [Int] {
        guard let vector = try table.vector(field, elementSize: 4, what) else { return [] }
        let values = try vector.int32s()
        for value in values where !(0 ..< tensorCount).contains(value) && !(optional && value == -1) {
            throw .modelInvalid(reason: "\(what) of \(table.name) name tensor \(value); the subgraph has \(tensorCount)")
        }
        return values
    }

    private static func tensor(
        _ table: FlatTable, index: Int, buffers: FlatVector?, file: FlatBuffer, activationByteLimit: Int,
        densifyBudget: inout Int
    ) throws(ModelError) -> GraphTensor {
        let name = try table.string(3, "name") ?? "tensor \(index)"
        let shape = try table.vector(0, elementSize: 4, "shape")?.int32s() ?? []
        guard shape.count <= 6 else {
            throw .unsupportedOption(operator: "tensor \(name)", reason: "rank \(shape.count); Visage handles up to 6")
        }
        var elements = 1
        for dimension in shape {
            guard dimension >= 0 else {
                throw .modelInvalid(reason: "tensor \(name) has dimension \(dimension); dimensions must be ≥ 0")
            }
            let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
            guard !overflow, product <= Graph.maximumTensorElements else {
                throw .modelInvalid(reason: "tensor \(name) has shape \(shape), over \(Graph.maximumTensorElements) elements")
            }
            elements = product
        }
        let typeCode = try table.uint8(1)
        guard let type = TensorType(rawValue: typeCode) else {
            throw .modelInvalid(reason: "tensor \(name) has type code \(typeCode); the schema defines 0…10")
        }
        let sparse = try table.table(6, "sparsity").map { (sparsity) throws(ModelError) in
            try SparseFormat(sparsity, shape: shape, tensor: name)
        }
        let bufferIndex = Int(try table.uint32(2))
        let data = try bufferBytes(bufferIndex, of: name, buffers: buffers, file: file)
        guard let data, !data.isEmpty else {
            if sparse != nil {
                throw .unsupportedOption(operator: "tensor \(name)", reason: "a sparse tensor with no values in the file; Visage densifies constants")
            }
            // An activation: held as float32 at run time, and its size is not backed by the file's bytes.
            guard elements * 4 <= activationByteLimit else {
                throw .modelInvalid(reason: "activation tensor \(name) of shape \(shape) needs \(elements * 4) bytes, over the "
                    + "\(activationByteLimit)-byte limit for a \(file.bytes.count)-byte model")
            }
            return GraphTensor(name: name, shape: shape, type: type, constant: nil)
        }
        if sparse != nil {
            guard type == .float32 || type == .float16 else {
                throw .unsupportedOption(operator: "tensor \(name)", reason: "sparse constant of type \(type); Visage densifies float32 and float16")
            }
            guard elements * 4 <= densifyBudget else {
                throw .modelInvalid(reason: "sparse tensor \(name) of shape \(shape) needs \(elements * 4) bytes once dense, over the "
                    + "\(activationByteLimit)-byte limit for a \(file.bytes.count)-byte model")
            }
            densifyBudget -= elements * 4
        }
        let stored = sparse?.storedCount ?? elements
        let (expected, overflow) = stored.multipliedReportingOverflow(by: type.size)
        guard !overflow, data.count == expected else {
            throw .modelInvalid(reason: "tensor \(name) of shape \(shape) and type \(type) needs \(stored) × \(type.size) bytes"
                + (sparse == nil ? "" : " (its sparse values)") + "; its buffer holds \(data.count)")
        }
        let constant: Constant
        switch type {
        case .float32:
            constant = .floats((0 ..< stored).map { Float(bitPattern: readUInt32(file.bytes, data.lowerBound + 4 * $0)) })
        case .float16:
            constant = .floats((0 ..< stored).map {
                float(fromHalf: UInt16(file.bytes[data.lowerBound + 2 * $0]) | UInt16(file.bytes[data.lowerBound + 2 * $0 + 1]) << 8)
            })
        case .int32:
            constant = .integers((0 ..< elements).map { Int(Int32(bitPattern: readUInt32(file.bytes, data.lowerBound + 4 * $0))) })
        case .int64:
            constant = .integers((0 ..< elements).map {
                let low = UInt64(readUInt32(file.bytes, data.lowerBound + 8 * $0))
                let high = UInt64(readUInt32(file.bytes, data.lowerBound + 8 * $0 + 4))
                return Int(truncatingIfNeeded: Int64(bitPattern: low | high << 32))
            })
        default:
            throw .unsupportedOption(operator: "tensor \(name)", reason: "constant of type \(type); Visage reads float32, float16, int32 and int64")
        }
        if let sparse, let values = constant.floats {
            return GraphTensor(name: name, shape: shape, type: type, constant: .floats(sparse.densify(values, zero: 0)))
        }
        return GraphTensor(name: name, shape: shape, type: type, constant: constant)
    }

    /// The byte range of buffer `index`, inline (`data`) or appended after the FlatBuffer (`offset`, `size`).
    private static func bufferBytes(
        _ index: Int, of name: String, buffers: FlatVector?, file: FlatBuffer
    ) throws(ModelError) -> Range<Int>? {
        guard index != 0 else { return nil }  // Buffer 0 is the schema's empty sentinel.
        guard let buffers, index < buffers.count else {
            throw .modelInvalid(reason: "tensor \(name) uses buffer \(index); the model has \(buffers?.count ?? 0)")
        }
        let buffer = try buffers.table(index, "buffer \(index)")
        if let data = try buffer.vector(0, elementSize: 1, "data") {
            return data.byteRange
        }
        let offset = try buffer.uint64(1)
        let size = try buffer.uint64(2)
        guard offset > 1 else { return nil }
        guard offset <= UInt64(file.count), size <= UInt64(file.count) - offset else {
            throw .modelInvalid(reason: "buffer \(index) spans bytes \(offset)+\(size), outside the \(file.count)-byte file")
        }
        return Int(offset) ..< Int(offset + size)
    }

    private static func options(of table: FlatTable, code: BuiltinOperator) throws(ModelError) -> OperatorOptions {
        let name = code.description
        let unionType = try table.uint8(3)
        /// The options table, after checking the union's type tag is the one this operator takes.
        func body(_ expected: UInt8) throws(ModelError) -> FlatTable? {
            guard unionType != 0 else { return nil }
            guard unionType == expected else {
                throw .modelInvalid(reason: "\(name) carries options of union type \(unionType); it takes type \(expected)")
            }
            return try table.table(4, "\(name) options")
        }
        func positive(_ value: Int32, _ what: String) throws(ModelError) -> Int {
            guard value >= 1, value <= 1 << 16 else {
                throw .modelInvalid(reason: "\(name) has \(what) \(value); it must be in 1…65536")
            }
            return Int(value)
        }
        switch code {
        case .conv2D, .depthwiseConv2D:
            let depthwise = code == .depthwiseConv2D
            let options = try body(depthwise ? 2 : 1)
            // Depthwise adds depth_multiplier as field 3, shifting the activation and dilations by one.
            let shift = depthwise ? 1 : 0
            return .convolution(.init(
                padding: try Padding(code: try options?.uint8(0) ?? 0, in: name),
                strideX: try positive(try options?.int32(1) ?? 0, "stride_w"),
                strideY: try positive(try options?.int32(2) ?? 0, "stride_h"),
                dilationX: try positive(try options?.int32(4 + shift, default: 1) ?? 1, "dilation_w_factor"),
                dilationY: try positive(try options?.int32(5 + shift, default: 1) ?? 1, "dilation_h_factor"),
                depthMultiplier: depthwise ? try positive(try options?.int32(3) ?? 0, "depth_multiplier") : 1,
                activation: try Activation(code: try options?.uint8(3 + shift) ?? 0, in: name)))
        case .maxPool2D:
            let options = try body(5)
            return .pool(.init(
                padding: try Padding(code: try options?.uint8(0) ?? 0, in: name),
                strideX: try positive(try options?.int32(1) ?? 0, "stride_w"),
                strideY: try positive(try options?.int32(2) ?? 0, "stride_h"),
                filterWidth: try positive(try options?.int32(3) ?? 0, "filter_width"),
                filterHeight: try positive(try options?.int32(4) ?? 0, "filter_height"),
                activation: try Activation(code: try options?.uint8(5) ?? 0, in: name)))
        case .add, .mul, .sub, .div:
            let tag: UInt8 = switch code {
            case .add: 11
            case .mul: 21
            case .sub: 28
            default: 29
            }
            return .arithmetic(try Activation(code: try body(tag)?.uint8(0) ?? 0, in: name))
        case .concatenation:
            let options = try body(10)
            return .concatenation(
                axis: Int(try options?.int32(0) ?? 0),
                activation: try Activation(code: try options?.uint8(1) ?? 0, in: name))
        case .resizeBilinear:
            let options = try body(15)
            return .resize(alignCorners: try options?.bool(2) ?? false, halfPixelCenters: try options?.bool(3) ?? false)
        case .mean, .sum:
            return .reducer(keepDimensions: try body(27)?.bool(0) ?? false)
        case .depthToSpace:
            return .depthToSpace(blockSize: try positive(try body(94)?.int32(0) ?? 0, "block_size"))
        case .stridedSlice:
            let options = try body(32)
            return .stridedSlice(.init(
                beginMask: Int(try options?.int32(0) ?? 0), endMask: Int(try options?.int32(1) ?? 0),
                ellipsisMask: Int(try options?.int32(2) ?? 0), newAxisMask: Int(try options?.int32(3) ?? 0),
                shrinkAxisMask: Int(try options?.int32(4) ?? 0), offset: try options?.bool(5) ?? false))
        default:
            return .none
        }
    }
}

@inline(__always)
private func readUInt32(_ bytes: [UInt8], _ position: Int) -> UInt32 {
    UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16
        | UInt32(bytes[position + 3]) << 24
}
