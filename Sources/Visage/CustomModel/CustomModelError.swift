/// Why a custom model could not be run on an image, beyond the engine's own ``ModelError``.
public enum CustomModelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A model or labels file could not be read.
    case unreadable(path: String, reason: String)
    /// The model's first input is not an image tensor `[1, height, width, 3]`.
    case unsupportedInput(shape: [Int])
    /// The caller's input size differs from the model's fixed one.
    case inputSizeMismatch(declared: [Int], model: [Int])
    /// An output index, channel or region is outside what the model or image has.
    case invalidParameter(name: String, value: String, rule: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .unsupportedInput(let shape):
            "the model's first input has shape \(shape); CustomModelRequest fills an image input [1, height, width, 3]"
        case .inputSizeMismatch(let declared, let model):
            "declared input size \(declared.map(String.init).joined(separator: "×")) differs from the model's \(model.map(String.init).joined(separator: "×")); TFLite shapes are fixed"
        case .invalidParameter(let name, let value, let rule): "\(name) = \(value) is invalid: \(rule)"
        }
    }
}
