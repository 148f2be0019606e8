import Testing
import VisageNN

/// `PackedDepthwiseConvolution` against `ReferenceKernels.depthwiseConvolution` for every
/// available kernel set.
struct DepthwiseConvolutionKernelTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var shape: ConvolutionShape
        var epilogue: ConvolutionKernelTests.Epilogue = .none
        var testDescription: String {
            let s = shape
            return "\(s.inputHeight)×\(s.inputWidth)→\(s.outputHeight)×\(s.outputWidth)×\(s.outputChannels) "
                + "k\(s.kernelHeight)×\(s.kernelWidth) s\(s.strideY)/\(s.strideX) p\(s.padTop)/\(s.padLeft) \(epilogue)"
        }
    }

    /// Channel counts below, at and above the 8- and 16-lane steps (the tail is masked), 3×3
    /// with stride 1, 2 and 3 and with and without padding, and other kernel sizes (general path).
    static let cases: [Case] = [
        Case(shape: channelwiseShape(6, 5, channels: 1, output: (6, 5), pad: 1)),
        Case(shape: channelwiseShape(6, 5, channels: 7, output: (6, 5), pad: 1), epilogue: .relu6),
        Case(shape: channelwiseShape(5, 6, channels: 8, output: (3, 4)), epilogue: .prelu),
        Case(shape: channelwiseShape(5, 5, channels: 13, output: (5, 5), pad: 1), epilogue: .clampAndPrelu),
        Case(shape: channelwiseShape(4, 4, channels: 16, output: (4, 4), pad: 1)),
        Case(shape: channelwiseShape(4, 5, channels: 17, output: (4, 5), pad: 1), epilogue: .prelu),
        Case(shape: channelwiseShape(8, 8, channels: 24, output: (4, 4), stride: 2)),
        Case(shape: channelwiseShape(7, 9, channels: 35, output: (4, 5), stride: 2, pad: 1), epilogue: .relu6),
        Case(shape: channelwiseShape(3, 3, channels: 127, output: (3, 3), pad: 1), epilogue: .clampAndPrelu),
        Case(shape: channelwiseShape(6, 6, channels: 9, output: (6, 6), kernel: 5, pad: 2), epilogue: .prelu),
        Case(shape: channelwiseShape(6, 7, channels: 18, output: (3, 3), kernel: 2, stride: 2)),
        Case(shape: channelwiseShape(2, 2, channels: 5, output: (4, 4), pad: 2)),
        Case(shape: channelwiseShape(8, 11, channels: 21, output: (3, 4), stride: 3, pad: 1), epilogue: .prelu),
        // Rows long enough that the 3×3 row kernels sweep them in several blocks of outputs
        // (AVX2: VISAGE_DW_BLOCK_PIXELS outputs ÷ the stride; AVX-512: VISAGE_DW_BLOCK_FLOATS input
        // floats), each block's chunks before the next block, with a short last block: stride 1, 2
        // and 3, 8-lane and 16-lane tails; at stride 1 with SAME padding, last blocks of one output
        // (33 and 65 pixels: its right column is padding) and many-channel rows of a few pixels.
        Case(shape: channelwiseShape(3, 50, channels: 24, output: (3, 50), pad: 1), epilogue: .prelu),
        Case(shape: channelwiseShape(3, 61, channels: 33, output: (3, 61), pad: 1), epilogue: .clampAndPrelu),
        Case(shape: channelwiseShape(5, 83, channels: 20, output: (2, 41), stride: 2), epilogue: .relu6),
        Case(shape: channelwiseShape(4, 70, channels: 40, output: (2, 35), stride: 2, pad: 1)),
        Case(shape: channelwiseShape(3, 64, channels: 19, output: (1, 22), stride: 3, pad: 1), epilogue: .prelu),
        Case(shape: channelwiseShape(3, 33, channels: 16, output: (3, 33), pad: 1), epilogue: .relu6),
        Case(shape: channelwiseShape(2, 65, channels: 12, output: (2, 65), pad: 1), epilogue: .prelu),
        Case(shape: channelwiseShape(4, 6, channels: 389, output: (4, 6), pad: 1), epilogue: .clampAndPrelu),
        // Full range's 12 × 12 × 36 in several blocks: a last chunk of 4 channels, swept in SSE registers by the AVX2 set.
        Case(shape: channelwiseShape(3, 40, channels: 36, output: (3, 40), pad: 1), epilogue: .clampAndPrelu),
        // Stride 1 in row pairs (the AVX2 set's two-row kernel, four input rows): the test's halves of
        // 5 and 4 rows, then 4 and 3 (an odd row left to the row kernel), pairs in several blocks of
        // 8-channel chunks, 4- and 3-channel tails row by row, padding rows above and below.
        Case(shape: channelwiseShape(9, 41, channels: 20, output: (9, 41), pad: 1), epilogue: .clampAndPrelu),
        Case(shape: channelwiseShape(7, 35, channels: 19, output: (7, 35), pad: 1), epilogue: .relu6),
        // The AVX2 blocks of 128 outputs (÷ the stride): rows of several such blocks,
        // a last block of one output (129 and 257 pixels at stride 1), row pairs in several blocks,
        // stride 2 and 3.
        Case(shape: channelwiseShape(3, 129, channels: 16, output: (3, 129), pad: 1), epilogue: .relu6),
        Case(shape: channelwiseShape(3, 257, channels: 24, output: (3, 257), pad: 1), epilogue: .prelu),
        Case(shape: channelwiseShape(5, 140, channels: 20, output: (5, 140), pad: 1), epilogue: .clampAndPrelu),
        Case(shape: channelwiseShape(5, 301, channels: 20, output: (2, 150), stride: 2), epilogue: .relu6),
        Case(shape: channelwiseShape(3, 200, channels: 19, output: (1, 67), stride: 3, pad: 1), epilogue: .prelu),
    ]

    @Test(arguments: cases, KernelISA.available)
    func matchesReference(_ testCase: Case, isa: KernelISA) {
        check(testCase, isa: isa)
    }

    /// The 3×3 row kernels on every channel count from 1 to 40 (full vectors, masked tails, both
    /// at once): rows wider than the 4-pixel tiles with a remainder, strides 1 and 2, padding
    /// on both sides or only on the right (SAME with an even input), 1-pixel rows and columns,
    /// 2-pixel rows (both edge outputs in one sweep), and rows whose every window leaves the input.
    @Test(arguments: KernelISA.available)
    func threeByThreeOnEveryChannelCount(isa: KernelISA) {
        for testCase in Self.everyChannelCountCases {
            check(testCase, isa: isa)
        }
    }

    /// The cases of `threeByThreeOnEveryChannelCount` (also exported by `KernelVectorExport`).
    static var everyChannelCountCases: [Case] {
        let epilogues: [ConvolutionKernelTests.Epilogue] = [.none, .relu6, .prelu, .clampAndPrelu]
        var cases: [Case] = []
        for channels in 1...40 {
            let shapes = [
                channelwiseShape(3, 11, channels: channels, output: (3, 11), pad: 1),
                channelwiseShape(5, 13, channels: channels, output: (3, 7), stride: 2, pad: 1),
                channelwiseShape(4, 12, channels: channels, output: (2, 6), stride: 2),
                channelwiseShape(4, 12, channels: channels, output: (2, 6), stride: 2, pad: 1),
                channelwiseShape(1, 1, channels: channels, output: (1, 1), pad: 1),
                channelwiseShape(6, 1, channels: channels, output: (3, 1), stride: 2, pad: 1),
                channelwiseShape(1, 9, channels: channels, output: (1, 9), pad: 1),
                channelwiseShape(3, 2, channels: channels, output: (3, 2), pad: 1),
                channelwiseShape(2, 3, channels: channels, output: (5, 6), pad: 3),
            ]
            for (index, shape) in shapes.enumerated() {
                cases.append(Case(shape: shape, epilogue: epilogues[(channels + index) % epilogues.count]))
            }
        }
        return cases
    }

    private func check(_ testCase: Case, isa: KernelISA) {
        let shape = testCase.shape
        var random = SplitMix64(seed: fixedSeed(testCase.testDescription))
        let input = random.floats(shape.inputHeight * shape.inputWidth * shape.inputChannels)
        let weights = random.floats(shape.kernelHeight * shape.kernelWidth * shape.outputChannels)
        let bias = random.floats(shape.outputChannels)
        let epilogue = makeEpilogue(testCase.epilogue, channels: shape.outputChannels, random: &random)

        let expected = reference(shape, input, weights, bias, epilogue)
        let magnitudes = reference(shape, input.map(abs), weights.map(abs), bias.map(abs), ConvolutionEpilogue())
        let accumulation = Float(shape.kernelHeight * shape.kernelWidth + 1)

        let sentinel: Float = 1234.5
        var output = [Float](repeating: sentinel, count: expected.count)
        let packed = weights.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                PackedDepthwiseConvolution(shape: shape, weightsHWC: w, bias: b, epilogue: epilogue, isa: isa)
            }
        }
        let split = shape.outputHeight / 2
        let rowLength = shape.outputWidth * shape.outputChannels
        output.withUnsafeMutableBufferPointer { out in
            packed.run(input: input, output: out.baseAddress!, outputRows: split..<shape.outputHeight)
        }
        #expect(output[..<(split * rowLength)].allSatisfy { $0 == sentinel })
        output.withUnsafeMutableBufferPointer { out in
            packed.run(input: input, output: out.baseAddress!, outputRows: 0..<split)
        }
        let problems = mismatches(output, expected) { 2 * accumulation * Float.ulpOfOne * magnitudes[$0] }
        #expect(problems.isEmpty, "\(isa): \(problems)")
    }

    private func reference(
        _ shape: ConvolutionShape, _ input: [Float], _ weights: [Float], _ bias: [Float], _ epilogue: ConvolutionEpilogue
    ) -> [Float] {
        var output = [Float](repeating: .nan, count: shape.outputHeight * shape.outputWidth * shape.outputChannels)
        weights.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                output.withUnsafeMutableBufferPointer { out in
                    ReferenceKernels.depthwiseConvolution(
                        shape: shape, input: input, weightsHWC: w, bias: b, epilogue: epilogue,
                        output: out.baseAddress!, outputRows: 0..<shape.outputHeight)
                }
            }
        }
        return output
    }
}
