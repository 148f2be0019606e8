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

/// Floats on a 64-byte boundary, freed with their owner: a 16-float weight panel or activation row
/// then fills one cache line, where an array's storage (after its header) or a large malloc (16
/// bytes past a page) split every second 256-bit load across two lines.
final class AlignedFloats: @unchecked Sendable {
    /// The first float; written only while the owner is being built.
    let base: UnsafeMutablePointer<Float>
    let count: Int

    /// `count` floats (at least one allocated), zeroed.
    init(count: Int) {
        self.count = count
        base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * MemoryLayout<Float>.stride, alignment: 64)
            .bindMemory(to: Float.self, capacity: max(count, 1))
        base.initialize(repeating: 0, count: max(count, 1))
    }

    deinit { base.deallocate() }
}
