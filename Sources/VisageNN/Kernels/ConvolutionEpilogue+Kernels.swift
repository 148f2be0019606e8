import CVisageKernels

extension ConvolutionEpilogue {
    /// PReLU slopes padded with zeros to whole 16-channel panels (the kernels load them 16 at a
    /// time), or empty when there is no PReLU.
    func paddedSlopes(channels: Int) -> [Float] {
        guard let preluSlopes else { return [] }
        let padded = (channels + Int(VISAGE_CONV_PANEL) - 1) / Int(VISAGE_CONV_PANEL) * Int(VISAGE_CONV_PANEL)
        return preluSlopes + Array(repeating: 0, count: padded - channels)
    }

    /// Calls `body` with the C epilogue over `paddedSlopes`.
    func withKernelEpilogue<R>(paddedSlopes: [Float], _ body: (UnsafePointer<visage_f32_epilogue>) -> R) -> R {
        paddedSlopes.withUnsafeBufferPointer { slopes in
            var c = visage_f32_epilogue(min: min, max: max, slopes: slopes.isEmpty ? nil : slopes.baseAddress)
            return body(&c)
        }
    }
}
