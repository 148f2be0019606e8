/// Why a model could not be loaded, planned or run.
///
/// One error type for the whole engine stage. Every message says what was wrong, which value and
/// which rule it broke, so a user holding a damaged or unsupported `.tflite` file knows why.
public struct ModelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The family of the failure, for code that wants to branch on it.
    public enum Kind: Equatable, Sendable {
        /// The file is not a well-formed TFLite model (bad offset, length, index or shape).
        case modelInvalid
        /// The model uses an operator the engine does not implement.
        case unsupportedOperator
        /// The model uses an operator with an option or tensor type the engine does not implement.
        case unsupportedOption
        /// A caller asked for an input or output tensor that does not exist.
        case unknownTensor
    }

    public let kind: Kind
    public let description: String

    private init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// The file is malformed; `reason` names the value and the rule it broke.
    public static func modelInvalid(reason: String) -> ModelError {
        ModelError(.modelInvalid, "invalid model: \(reason)")
    }

    /// The model uses operator `name` (TFLite's spelling, e.g. `SPLIT_V`), which Visage does not run.
    public static func unsupportedOperator(name: String) -> ModelError {
        ModelError(.unsupportedOperator, "unsupported operator \(name)")
    }

    /// The model uses operators or tensor types Visage does not run: every one, with its count
    /// (``ModelSupport``), found before anything is planned or run.
    public static func unsupportedModel(_ support: ModelSupport) -> ModelError {
        ModelError(.unsupportedOperator, "unsupported model: \(support)")
    }

    /// Operator `operator` is supported, but not with this option or tensor type.
    public static func unsupportedOption(operator name: String, reason: String) -> ModelError {
        ModelError(.unsupportedOption, "unsupported option in \(name): \(reason)")
    }

    /// No input or output tensor is called `name`.
    public static func unknownTensor(name: String) -> ModelError {
        ModelError(.unknownTensor, "the model has no input or output tensor named \"\(name)\"")
    }
}
