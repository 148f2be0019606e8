/// What a convolution does to each accumulated sum before storing it.
///
/// The order is fixed and matches TFLite's fused activations followed by a separate PRELU:
/// bias (added first, by the convolution), then the clamp to `min...max`, then PReLU
/// (`x < 0 ? x * slope[channel] : x`) with one slope per output channel. Fusing these into the
/// kernel keeps each value in a register instead of another pass over memory.
package struct ConvolutionEpilogue: Sendable, Hashable {
    package var min: Float = -.infinity
    package var max: Float = .infinity
    /// One slope per output channel, or nil for no PReLU.
    package var preluSlopes: [Float]? = nil

    package init(min: Float = -.infinity, max: Float = .infinity, preluSlopes: [Float]? = nil) {
        self.min = min
        self.max = max
        self.preluSlopes = preluSlopes
    }

    /// Clamp then PReLU, as the kernels apply them to one value of `channel`.
    @inline(__always)
    package func apply(_ value: Float, channel: Int) -> Float {
        let clamped = Swift.min(Swift.max(value, min), max)
        guard let preluSlopes, clamped < 0 else { return clamped }
        return clamped * preluSlopes[channel]
    }
}
