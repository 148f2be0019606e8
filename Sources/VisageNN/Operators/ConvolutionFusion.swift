/// What the planner folded into a convolution: a preceding spatial PAD, a following activation
/// or PRELU, a residual ADD (with its own activation or PRELU), and the tensor the fused result
/// is written to.
struct ConvolutionFusion {
    var input: Int
    var output: Int
    /// Zero padding added before (top, left) and after (bottom, right) by a fused PAD.
    var padTop = 0, padLeft = 0, padBottom = 0, padRight = 0
    var epilogue: ConvolutionEpilogue
    /// A tensor added to the result (a residual connection): of the output's shape, or with
    /// fewer channels when a channel PAD that widened it with zeros was folded in.
    var residual: Int?
    /// Clamp and per-channel PRELU slopes applied after the residual is added.
    var residualEpilogue = ConvolutionEpilogue()
}

extension ConvolutionFusion {
    /// Output extent and leading padding along one axis, after the fused PAD and the operator's own padding.
    static func resolve(
        _ context: OperatorContext, input: Int, before: Int, after: Int, kernel: Int, stride: Int, padding: Padding
    ) throws(ModelError) -> (output: Int, padBefore: Int) {
        let padded = input + before + after
        let (output, own) = padding.resolve(input: padded, kernel: kernel, stride: stride)
        guard output > 0 else {
            throw context.invalid("a \(kernel)-tap window does not fit an input of \(padded)")
        }
        return (output, before + own)
    }
}
