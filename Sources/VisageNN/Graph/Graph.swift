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
    /// Bytes of activations (each tensor alone, and the planned arena) this model may ask for.
    var activationByteLimit: Int

    /// Largest element count one tensor may declare; keeps a forged shape from asking for gigabytes.
    static let maximumTensorElements = 1 << 26

    /// The activation memory a file of `fileBytes` may claim: 16 MiB, plus 64 bytes per byte of
    /// file, at most 1 GiB. Activations are not stored in the file, so a few hundred forged bytes
    /// could otherwise declare a gigabyte that every interpreter allocates and zeroes. Real models
    /// sit far below: MediaPipe's face models plan arenas of 0.2–8 bytes per byte of file (the
    /// short-range detector: 1.7 MiB for 230 KB, limit 30 MiB); the 16 MiB floor leaves tiny
    /// single-operator models room for a 1024×1024×4 float image.
    static func activationByteLimit(fileBytes: Int) -> Int {
        let (perByte, overflow) = fileBytes.multipliedReportingOverflow(by: 64)
        return overflow ? maximumActivationBytes : min(maximumActivationBytes, 16 << 20 + perByte)
    }

    /// Most activation memory any model may claim (1 GiB), whatever its size.
    static let maximumActivationBytes = 1 << 30
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
