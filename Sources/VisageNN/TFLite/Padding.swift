/// TFLite's convolution and pooling padding (schema `Padding`).
enum Padding: Sendable {
    case same, valid

    init(code: UInt8, in operatorName: String) throws(ModelError) {
        switch code {
        case 0: self = .same
        case 1: self = .valid
        default: throw .modelInvalid(reason: "\(operatorName) has padding code \(code); the schema defines SAME (0) and VALID (1)")
        }
    }

    /// Output length and leading padding along one axis, as TFLite computes them.
    func resolve(input: Int, kernel: Int, stride: Int) -> (output: Int, before: Int) {
        switch self {
        case .same:
            let output = (input + stride - 1) / stride
            let total = max((output - 1) * stride + kernel - input, 0)
            return (output, total / 2)
        case .valid:
            return (input >= kernel ? (input - kernel) / stride + 1 : 0, 0)
        }
    }
}
