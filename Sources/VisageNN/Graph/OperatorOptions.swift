/// The builtin options of an operator that Visage uses, decoded from the schema's union.
enum OperatorOptions: Sendable {
    case none
    case convolution(Convolution)
    case pool(Pool)
    /// ADD, SUB, MUL, DIV: only a fused activation.
    case arithmetic(Activation)
    case concatenation(axis: Int, activation: Activation)
    case resize(alignCorners: Bool, halfPixelCenters: Bool)
    case reducer(keepDimensions: Bool)
    case stridedSlice(StridedSlice)
    case depthToSpace(blockSize: Int)

    struct Convolution: Sendable {
        var padding: Padding
        var strideX: Int, strideY: Int
        var dilationX: Int, dilationY: Int
        var depthMultiplier: Int
        var activation: Activation
    }

    struct Pool: Sendable {
        var padding: Padding
        var strideX: Int, strideY: Int
        var filterWidth: Int, filterHeight: Int
        var activation: Activation
    }

    struct StridedSlice: Sendable {
        var beginMask: Int, endMask: Int, ellipsisMask: Int, newAxisMask: Int, shrinkAxisMask: Int
        var offset: Bool
    }
}
