/// A model input or output: what callers need to fill or read it.
public struct TensorDescription: Equatable, Sendable, CustomStringConvertible {
    /// The tensor's name in the model file.
    public let name: String
    /// Dimensions, outermost first (NHWC for images).
    public let shape: [Int]
    /// Position among the model's inputs (or outputs); the index `Interpreter.withInput(_:_:)` takes.
    public let index: Int

    public init(name: String, shape: [Int], index: Int) {
        self.name = name
        self.shape = shape
        self.index = index
    }

    /// Number of `Float` values in the tensor.
    public var elementCount: Int { shape.reduce(1, *) }

    public var description: String {
        "\(index): \(name) [\(shape.map(String.init).joined(separator: "×"))]"
    }
}
