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

    func run(_ tensors: TensorPointers, workers: Workers) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        let channels = channels, epsilon = epsilon, scale = 1 / Float(channels)
        let vectors = channels & ~3, octets = channels & ~7
        gamma.withUnsafeBufferPointer { gamma in
            let gamma = gamma.baseAddress!
            var from = x, to = y
            for _ in 0 ..< rows {
                func load(_ index: Int) -> SIMD4<Float> { UnsafeRawPointer(from + index).loadUnaligned(as: SIMD4<Float>.self) }
                // Sums in eight interleaved partial sums (two vectors), so the adds overlap.
                var low = SIMD4<Float>(), high = SIMD4<Float>()
                var index = 0
                while index < octets {
                    low += load(index)
                    high += load(index &+ 4)
                    index &+= 8
                }
                let mean = Self.total(low, high, tail: octets ..< channels) { from[$0] } * scale
                low = .zero
                high = .zero
                index = 0
                while index < octets {
                    let (a, b) = (load(index) - mean, load(index &+ 4) - mean)
                    low += a * a
                    high += b * b
                    index &+= 8
                }
                let variance = Self.total(low, high, tail: octets ..< channels) { (from[$0] - mean) * (from[$0] - mean) } * scale
                let inverse = 1 / (variance + epsilon).squareRoot()
                let negated = -mean
                index = 0
                while index < vectors {
                    let s = inverse * UnsafeRawPointer(gamma + index).loadUnaligned(as: SIMD4<Float>.self)
                    UnsafeMutableRawPointer(to + index).storeBytes(of: load(index) * s + negated * s, as: SIMD4<Float>.self)
                    index &+= 4
                }
                while index < channels {
                    let s = inverse * gamma[index]
                    to[index] = from[index] * s + negated * s
                    index &+= 1
                }
                from += channels
                to += channels
            }
        }
    }

    /// The eight partial sums added pairwise, then the terms of the tail in order.
    @inline(__always)
    private static func total(_ low: SIMD4<Float>, _ high: SIMD4<Float>, tail: Range<Int>, _ term: (Int) -> Float) -> Float {
        let quarter = low + high
        var total = (quarter.lowHalf + quarter.highHalf).sum()
        for index in tail { total += term(index) }
        return total
    }
}
