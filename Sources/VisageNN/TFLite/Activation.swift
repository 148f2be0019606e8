/// A fused activation (schema `ActivationFunctionType`), applied to an operator's result.
enum Activation: Equatable, Sendable {
    case none, relu, reluMinus1To1, relu6

    init(code: UInt8, in operatorName: String) throws(ModelError) {
        switch code {
        case 0: self = .none
        case 1: self = .relu
        case 2: self = .reluMinus1To1
        case 3: self = .relu6
        case 4: throw .unsupportedOption(operator: operatorName, reason: "fused activation TANH")
        case 5: throw .unsupportedOption(operator: operatorName, reason: "fused activation SIGN_BIT")
        default: throw .modelInvalid(reason: "\(operatorName) has fused activation code \(code); the schema defines 0…5")
        }
    }

    /// The clamp the activation amounts to.
    var bounds: (min: Float, max: Float) {
        switch self {
        case .none: (-.infinity, .infinity)
        case .relu: (0, .infinity)
        case .reluMinus1To1: (-1, 1)
        case .relu6: (0, 6)
        }
    }
}
