import CVisageKernels

/// What a packed convolution keeps between runs, whatever its kind: the weights in the kernels' panel
/// layout (bias in front), the zeros its padding taps read, and its epilogue with the PReLU slopes padded
/// to whole panels.
struct PackedWeights: Sendable {
    let epilogue: ConvolutionEpilogue
    private let packed: AlignedFloats
    private let slopes: [Float]
    private let zeros: [Float]

    /// - Parameters:
    ///   - count: floats `pack` writes (the C target's `…_packed_count`).
    ///   - zeroCount: floats of the zero buffer the kernel reads for padding.
    ///   - channels: output channels; `bias` and the epilogue's slopes must have one value each.
    ///   - pack: writes the packed weights into the `count` floats it is given.
    init(
        count: Int, zeroCount: Int, channels: Int, bias: UnsafeBufferPointer<Float>?, epilogue: ConvolutionEpilogue,
        pack: (UnsafeMutablePointer<Float>) -> Void
    ) {
        precondition(bias == nil || bias!.count == channels, "bias count \(bias!.count) does not match \(channels) output channels")
        precondition(
            epilogue.preluSlopes == nil || epilogue.preluSlopes!.count == channels,
            "PReLU slope count \(epilogue.preluSlopes!.count) does not match \(channels) output channels")
        self.epilogue = epilogue
        packed = AlignedFloats(count: count)
        pack(packed.base)
        slopes = epilogue.paddedSlopes(channels: channels)
        zeros = Array(repeating: 0, count: zeroCount)
    }

    /// Calls `body` with the packed weights, the zeros and the C epilogue.
    func withOperands<R>(
        _ body: (_ packed: UnsafePointer<Float>, _ zeros: UnsafePointer<Float>, _ epilogue: UnsafePointer<visage_f32_epilogue>) -> R
    ) -> R {
        zeros.withUnsafeBufferPointer { zeros in
            epilogue.withKernelEpilogue(paddedSlopes: slopes) { body(UnsafePointer(packed.base), zeros.baseAddress!, $0) }
        }
    }
}
