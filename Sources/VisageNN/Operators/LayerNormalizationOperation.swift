/// Layer normalisation over the last axis, one row at a time while the row is in L1:
/// `y = x·s + (−mean)·s` with `s = γ / √(variance + ε)`, the arithmetic of the ten operators
/// ``LayerNormalizationFusion`` replaces, in their order (mean and variance as sums times 1/C,
/// the variance from squared differences to the mean).
struct LayerNormalizationOperation: Operation {
    let input: Int, output: Int
    let rows: Int, channels: Int
    let epsilon: Float
    let gamma: [Float]

    var reads: [Int] { [input] }
    var writes: [Int] { [output] }
    var summary: String { "layer norm \(rows)×\(channels)" }

    init(_ context: OperatorContext, fusion: LayerNormalizationFusion) throws(ModelError) {
        input = fusion.input
        output = fusion.output
        let shape = try context.floatShape(input)
        try context.expectShape(output, shape)
        channels = shape.last ?? 1
        guard channels > 0, fusion.gamma.count == channels else {
            throw context.invalid("a layer normalisation has \(fusion.gamma.count) scales for \(channels) channels")
        }
        rows = shape.reduce(1, *) / channels
        epsilon = fusion.epsilon
        gamma = fusion.gamma
    }

    func run(_ tensors: TensorPointers, threads: Int) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        let channels = channels, epsilon = epsilon, scale = 1 / Float(channels)
        gamma.withUnsafeBufferPointer { gamma in
            let gamma = gamma.baseAddress!
            for row in 0 ..< rows {
                let from = x + row * channels, to = y + row * channels
                let mean = Self.sum(channels) { from[$0] } * scale
                let variance = Self.sum(channels) { (from[$0] - mean) * (from[$0] - mean) } * scale
                let inverse = 1 / (variance + epsilon).squareRoot()
                let negated = -mean
                for channel in 0 ..< channels {
                    let s = inverse * gamma[channel]
                    to[channel] = from[channel] * s + negated * s
                }
            }
        }
    }

    /// Σ `term(i)` for i in 0..<count, in eight interleaved partial sums so the adds overlap.
    @inline(__always)
    private static func sum(_ count: Int, _ term: (Int) -> Float) -> Float {
        var partial = SIMD8<Float>()
        var index = 0
        while index + 8 <= count {
            partial += SIMD8(term(index), term(index + 1), term(index + 2), term(index + 3),
                             term(index + 4), term(index + 5), term(index + 6), term(index + 7))
            index += 8
        }
        let quarter = partial.lowHalf + partial.highHalf
        var total = (quarter.lowHalf + quarter.highHalf).sum()
        while index < count {
            total += term(index)
            index += 1
        }
        return total
    }
}
