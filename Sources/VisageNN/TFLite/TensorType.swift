/// TFLite's element types (schema `TensorType`) that Visage reads.
enum TensorType: UInt8, Sendable {
    case float32 = 0
    case float16 = 1
    case int32 = 2
    case uint8 = 3
    case int64 = 4
    case string = 5
    case bool = 6
    case int16 = 7
    case complex64 = 8
    case int8 = 9
    case float64 = 10

    /// Bytes per element.
    var size: Int {
        switch self {
        case .uint8, .bool, .int8, .string: 1
        case .float16, .int16: 2
        case .float32, .int32: 4
        case .int64, .float64, .complex64: 8
        }
    }
}
