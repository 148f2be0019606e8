/// TFLite's builtin operator codes (schema `BuiltinOperator`), by the names the schema gives them.
struct BuiltinOperator: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    let rawValue: Int32

    init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    static let add = Self(rawValue: 0)
    static let concatenation = Self(rawValue: 2)
    static let conv2D = Self(rawValue: 3)
    static let depthwiseConv2D = Self(rawValue: 4)
    static let depthToSpace = Self(rawValue: 5)
    static let dequantize = Self(rawValue: 6)
    static let logistic = Self(rawValue: 14)
    static let maxPool2D = Self(rawValue: 17)
    static let mul = Self(rawValue: 18)
    static let relu = Self(rawValue: 19)
    static let relu6 = Self(rawValue: 21)
    static let reshape = Self(rawValue: 22)
    static let resizeBilinear = Self(rawValue: 23)
    static let pad = Self(rawValue: 34)
    static let transpose = Self(rawValue: 39)
    static let mean = Self(rawValue: 40)
    static let sub = Self(rawValue: 41)
    static let div = Self(rawValue: 42)
    static let stridedSlice = Self(rawValue: 45)
    static let prelu = Self(rawValue: 54)
    static let neg = Self(rawValue: 59)
    static let sum = Self(rawValue: 74)
    static let sqrt = Self(rawValue: 75)
    static let rsqrt = Self(rawValue: 76)
    static let squaredDifference = Self(rawValue: 99)
    static let densify = Self(rawValue: 124)

    /// The schema's name, as error messages and TFLite tools print it.
    var description: String {
        let index = Int(rawValue)
        return Self.names.indices.contains(index) ? Self.names[index] : "BUILTIN_OPERATOR_\(rawValue)"
    }

    private static let names = [
        "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE",
        "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION",
        "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D",
        "MUL", "RELU", "RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX",
        "SPACE_TO_DEPTH", "SVDF", "TANH", "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM",
        "EMBEDDING_LOOKUP_SPARSE", "PAD", "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER", "BATCH_TO_SPACE_ND",
        "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB", "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM",
        "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN", "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE",
        "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM", "ARG_MAX", "MINIMUM", "LESS", "NEG",
        "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT", "SLICE", "SIN", "TRANSPOSE_CONV",
        "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG", "SUM", "SQRT", "RSQRT",
        "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK", "LOGICAL_OR",
        "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY",
        "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD", "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU",
        "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N",
        "GATHER_ND", "COS", "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE",
        "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF", "WHILE", "NON_MAX_SUPPRESSION_V4",
        "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2", "DENSIFY", "SEGMENT_SUM", "BATCH_MATMUL",
    ]
}
