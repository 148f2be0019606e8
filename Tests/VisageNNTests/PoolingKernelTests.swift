import Testing
import VisageNN

/// `Pooling.maxPool` against `ReferenceKernels.maxPool` for every available kernel set; a
/// maximum rounds nothing, so they must agree exactly.
struct PoolingKernelTests {
    /// 2×2/2 (the models' pools) on even and odd sizes, 3×3/2 with SAME padding, a window past
    /// the input, and channel counts around the 8- and 16-lane steps.
    static let shapes: [ConvolutionShape] = [
        channelwiseShape(6, 8, channels: 1, output: (3, 4), kernel: 2, stride: 2),
        channelwiseShape(7, 5, channels: 7, output: (4, 3), kernel: 2, stride: 2),
        channelwiseShape(4, 4, channels: 8, output: (2, 2), kernel: 2, stride: 2),
        channelwiseShape(6, 6, channels: 13, output: (3, 3), kernel: 2, stride: 2),
        channelwiseShape(4, 6, channels: 16, output: (2, 3), kernel: 2, stride: 2),
        channelwiseShape(5, 5, channels: 17, output: (3, 3), kernel: 3, stride: 2, pad: 1),
        channelwiseShape(4, 3, channels: 35, output: (2, 2), kernel: 3, stride: 2, pad: 1),
        channelwiseShape(2, 2, channels: 5, output: (3, 3), kernel: 2, stride: 2, pad: 2),
    ]

    @Test(arguments: shapes, KernelISA.available)
    func matchesReference(shape: ConvolutionShape, isa: KernelISA) {
        check(shape, isa: isa)
    }

    /// The row kernels on every channel count from 1 to 40: 2×2/2 with an odd width and height
    /// (the last window keeps one column and one row), a 1-pixel input, windows partly and wholly
    /// in the padding, and a 3×3/1 window.
    @Test(arguments: KernelISA.available)
    func everyChannelCount(isa: KernelISA) {
        for shape in Self.everyChannelCountShapes {
            check(shape, isa: isa)
        }
    }

    /// The shapes of `everyChannelCount` (also exported by `KernelVectorExport`).
    static var everyChannelCountShapes: [ConvolutionShape] {
        (1...40).flatMap { channels in
            [
                channelwiseShape(5, 9, channels: channels, output: (3, 5), kernel: 2, stride: 2),
                channelwiseShape(1, 1, channels: channels, output: (1, 1), kernel: 2, stride: 2),
                channelwiseShape(3, 4, channels: channels, output: (3, 4), kernel: 2, stride: 2, pad: 1),
                channelwiseShape(2, 3, channels: channels, output: (4, 5), kernel: 2, stride: 2, pad: 3),
                channelwiseShape(4, 6, channels: channels, output: (4, 6), kernel: 3, stride: 1, pad: 1),
            ]
        }
    }

    private func check(_ shape: ConvolutionShape, isa: KernelISA) {
        var random = SplitMix64(seed: fixedSeed("maxpool \(shape.inputHeight) \(shape.inputWidth) \(shape.inputChannels)"))
        let input = random.floats(shape.inputHeight * shape.inputWidth * shape.inputChannels, in: -4...4)
        let count = shape.outputHeight * shape.outputWidth * shape.outputChannels
        for (min, max) in [(-Float.infinity, Float.infinity), (0, 6), (-1, 1)] {
            var expected = [Float](repeating: .nan, count: count)
            ReferenceKernels.maxPool(shape: shape, input: input, output: &expected, outputRows: 0..<shape.outputHeight, min: min, max: max)
            var output = [Float](repeating: .nan, count: count)
            let split = shape.outputHeight / 2
            Pooling.maxPool(shape: shape, input: input, output: &output, outputRows: 0..<split, min: min, max: max, isa: isa)
            Pooling.maxPool(shape: shape, input: input, output: &output, outputRows: split..<shape.outputHeight, min: min, max: max, isa: isa)
            #expect(output == expected, "\(isa) clamp \(min)...\(max)")
        }
    }

    /// NaN taps are passed over, as TFLite's `std::max(max, tap)` from the lowest float and the reference
    /// do, wherever the NaN sits in the window (first tap, last, all) and across the vector tails.
    @Test(arguments: KernelISA.available)
    func nanTapsArePassedOver(isa: KernelISA) {
        let shape = channelwiseShape(4, 4, channels: 19, output: (2, 2), kernel: 2, stride: 2)
        var random = SplitMix64(seed: fixedSeed("maxpool nan"))
        var input = random.floats(4 * 4 * 19, in: -4...4)
        for index in stride(from: 0, to: input.count, by: 5) { input[index] = .nan }
        for channel in 0..<19 { input[(1 * 4 + 2) * 19 + channel] = .nan }  // the second window's third tap
        for pixel in [10, 11, 14, 15] { input[pixel * 19 + 3] = .nan }  // every tap of the last window, channel 3
        let count = 2 * 2 * 19
        var expected = [Float](repeating: 0, count: count)
        ReferenceKernels.maxPool(shape: shape, input: input, output: &expected, outputRows: 0..<2)
        #expect(!expected.contains { $0.isNaN })
        var output = [Float](repeating: 0, count: count)
        Pooling.maxPool(shape: shape, input: input, output: &output, outputRows: 0..<2, isa: isa)
        #expect(output == expected, "\(isa)")
    }
}
