import Testing
import VisageNN

/// `PackedConvolution` against `ReferenceKernels.convolution` for every available kernel set.
struct ConvolutionKernelTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var shape: ConvolutionShape
        var epilogue: Epilogue = .none
        var testDescription: String {
            let s = shape
            return "\(s.inputHeight)×\(s.inputWidth)×\(s.inputChannels)→\(s.outputHeight)×\(s.outputWidth)×\(s.outputChannels) "
                + "k\(s.kernelHeight)×\(s.kernelWidth) s\(s.strideY)/\(s.strideX) p\(s.padTop)/\(s.padLeft) \(epilogue)"
        }
    }

    enum Epilogue: String, Sendable { case none, relu6, prelu, clampAndPrelu }

    /// Channel counts below, at and above the 16-channel panel and the 2-, 6- and 12-pixel tiles,
    /// odd sizes, strides 1 and 2, and paddings (including windows wholly in the padding).
    static let cases: [Case] = [
        // 1×1: the GEMM path.
        Case(shape: .init(inputHeight: 5, inputWidth: 7, inputChannels: 1, outputHeight: 5, outputWidth: 7, outputChannels: 1, kernelHeight: 1, kernelWidth: 1)),
        Case(shape: .init(inputHeight: 5, inputWidth: 7, inputChannels: 13, outputHeight: 5, outputWidth: 7, outputChannels: 16, kernelHeight: 1, kernelWidth: 1), epilogue: .relu6),
        Case(shape: .init(inputHeight: 4, inputWidth: 3, inputChannels: 16, outputHeight: 4, outputWidth: 3, outputChannels: 17, kernelHeight: 1, kernelWidth: 1), epilogue: .prelu),
        Case(shape: .init(inputHeight: 3, inputWidth: 3, inputChannels: 127, outputHeight: 3, outputWidth: 3, outputChannels: 13, kernelHeight: 1, kernelWidth: 1), epilogue: .clampAndPrelu),
        Case(shape: .init(inputHeight: 2, inputWidth: 5, inputChannels: 17, outputHeight: 2, outputWidth: 5, outputChannels: 33, kernelHeight: 1, kernelWidth: 1)),
        Case(shape: .init(inputHeight: 1, inputWidth: 6, inputChannels: 8, outputHeight: 1, outputWidth: 6, outputChannels: 7, kernelHeight: 1, kernelWidth: 1), epilogue: .prelu),
        Case(shape: .init(inputHeight: 7, inputWidth: 6, inputChannels: 5, outputHeight: 4, outputWidth: 3, outputChannels: 12, kernelHeight: 1, kernelWidth: 1, strideY: 2, strideX: 2)),
        // 3×3, 5×5 and 2×2: the first layers and iris.
        Case(shape: .init(inputHeight: 9, inputWidth: 8, inputChannels: 3, outputHeight: 9, outputWidth: 8, outputChannels: 16, kernelHeight: 3, kernelWidth: 3, padTop: 1, padLeft: 1), epilogue: .relu6),
        Case(shape: .init(inputHeight: 10, inputWidth: 10, inputChannels: 3, outputHeight: 5, outputWidth: 5, outputChannels: 24, kernelHeight: 3, kernelWidth: 3, strideY: 2, strideX: 2), epilogue: .prelu),
        Case(shape: .init(inputHeight: 9, inputWidth: 7, inputChannels: 13, outputHeight: 5, outputWidth: 4, outputChannels: 13, kernelHeight: 3, kernelWidth: 3, strideY: 2, strideX: 2, padTop: 1, padLeft: 1), epilogue: .clampAndPrelu),
        Case(shape: .init(inputHeight: 8, inputWidth: 8, inputChannels: 3, outputHeight: 4, outputWidth: 4, outputChannels: 8, kernelHeight: 5, kernelWidth: 5, strideY: 2, strideX: 2, padTop: 1, padLeft: 2)),
        Case(shape: .init(inputHeight: 6, inputWidth: 6, inputChannels: 4, outputHeight: 3, outputWidth: 3, outputChannels: 17, kernelHeight: 2, kernelWidth: 2, strideY: 2, strideX: 2), epilogue: .prelu),
        // Wide rows: tiles wholly inside a row read a kernel row as one run, above and below the input as zeros.
        Case(shape: .init(inputHeight: 4, inputWidth: 20, inputChannels: 5, outputHeight: 4, outputWidth: 20, outputChannels: 7, kernelHeight: 3, kernelWidth: 3, padTop: 1, padLeft: 1), epilogue: .relu6),
        Case(shape: .init(inputHeight: 5, inputWidth: 19, inputChannels: 3, outputHeight: 3, outputWidth: 10, outputChannels: 24, kernelHeight: 5, kernelWidth: 5, strideY: 2, strideX: 2, padTop: 2, padLeft: 2), epilogue: .prelu),
        Case(shape: .init(inputHeight: 4, inputWidth: 16, inputChannels: 9, outputHeight: 2, outputWidth: 8, outputChannels: 9, kernelHeight: 2, kernelWidth: 2, strideY: 2, strideX: 2)),
        Case(shape: .init(inputHeight: 3, inputWidth: 4, inputChannels: 2, outputHeight: 5, outputWidth: 6, outputChannels: 5, kernelHeight: 3, kernelWidth: 3, padTop: 3, padLeft: 1)),
        Case(shape: .init(inputHeight: 5, inputWidth: 5, inputChannels: 6, outputHeight: 3, outputWidth: 2, outputChannels: 18, kernelHeight: 3, kernelWidth: 1, strideY: 2, strideX: 3, padLeft: 1)),
        // Around the 12-pixel AVX-512 tile: tails of 1 and 11 pixels, panels ending with 8 or 5 channels.
        Case(shape: .init(inputHeight: 5, inputWidth: 5, inputChannels: 24, outputHeight: 5, outputWidth: 5, outputChannels: 40, kernelHeight: 1, kernelWidth: 1), epilogue: .prelu),
        Case(shape: .init(inputHeight: 13, inputWidth: 11, inputChannels: 8, outputHeight: 13, outputWidth: 11, outputChannels: 21, kernelHeight: 3, kernelWidth: 3, padTop: 1, padLeft: 1), epilogue: .clampAndPrelu),
        Case(shape: .init(inputHeight: 17, inputWidth: 17, inputChannels: 3, outputHeight: 9, outputWidth: 9, outputChannels: 24, kernelHeight: 5, kernelWidth: 5, strideY: 2, strideX: 2, padTop: 2, padLeft: 2), epilogue: .relu6),
        // Rows wide enough for consecutive interior tiles, whose pointers move on from the previous tile's.
        Case(shape: .init(inputHeight: 7, inputWidth: 60, inputChannels: 3, outputHeight: 3, outputWidth: 29, outputChannels: 16, kernelHeight: 3, kernelWidth: 3, strideY: 2, strideX: 2), epilogue: .prelu),
        Case(shape: .init(inputHeight: 5, inputWidth: 40, inputChannels: 4, outputHeight: 5, outputWidth: 40, outputChannels: 9, kernelHeight: 3, kernelWidth: 3, padTop: 1, padLeft: 1), epilogue: .relu6),
        // One output pixel: mesh's 2×2 head.
        Case(shape: .init(inputHeight: 2, inputWidth: 2, inputChannels: 20, outputHeight: 1, outputWidth: 1, outputChannels: 37, kernelHeight: 2, kernelWidth: 2, strideY: 2, strideX: 2), epilogue: .prelu),
        // 1×1 layers of 8 and 16 input channels (mesh's 128×128 and full range's 96×96 ones): whole
        // 12-pixel tiles take the AVX2 tiles specialised for those depths, tails the general ones.
        Case(shape: .init(inputHeight: 4, inputWidth: 30, inputChannels: 16, outputHeight: 4, outputWidth: 30, outputChannels: 8, kernelHeight: 1, kernelWidth: 1), epilogue: .prelu),
        Case(shape: .init(inputHeight: 5, inputWidth: 7, inputChannels: 8, outputHeight: 5, outputWidth: 7, outputChannels: 16, kernelHeight: 1, kernelWidth: 1), epilogue: .clampAndPrelu),
        Case(shape: .init(inputHeight: 6, inputWidth: 6, inputChannels: 16, outputHeight: 6, outputWidth: 6, outputChannels: 21, kernelHeight: 1, kernelWidth: 1), epilogue: .relu6),
        Case(shape: .init(inputHeight: 4, inputWidth: 13, inputChannels: 8, outputHeight: 4, outputWidth: 13, outputChannels: 5, kernelHeight: 1, kernelWidth: 1)),
        // 1×1 layers whose last panel has at most 4 channels (full range's 48×48×48→1, the
        // blendshapes' 384→97): that panel through the dot kernel, whole 16-float steps and a
        // masked tail of kc, odd pixel counts; past 512 input channels, the tile kernels again.
        Case(shape: .init(inputHeight: 5, inputWidth: 7, inputChannels: 40, outputHeight: 5, outputWidth: 7, outputChannels: 3, kernelHeight: 1, kernelWidth: 1), epilogue: .clampAndPrelu),
        Case(shape: .init(inputHeight: 7, inputWidth: 9, inputChannels: 21, outputHeight: 4, outputWidth: 5, outputChannels: 34, kernelHeight: 1, kernelWidth: 1, strideY: 2, strideX: 2), epilogue: .prelu),
        Case(shape: .init(inputHeight: 2, inputWidth: 3, inputChannels: 513, outputHeight: 2, outputWidth: 3, outputChannels: 1, kernelHeight: 1, kernelWidth: 1), epilogue: .relu6),
        // A pointwise layer deep enough that the AVX2 set's pointwise kernel takes its whole tiles in
        // several runs (one per 16 KiB of input), then a tail of 3 pixels through the tiles.
        Case(shape: .init(inputHeight: 5, inputWidth: 15, inputChannels: 300, outputHeight: 5, outputWidth: 15, outputChannels: 20, kernelHeight: 1, kernelWidth: 1), epilogue: .prelu),
        // Full range's 96×96×32→8 and mesh's 128×128×16→8 in small: pointwise runs of narrow panels (the
        // SSE tiles on cores with 128-bit FMA units, VISAGE_AVX2_NARROW), a depth the tile loops over,
        // then a tail of 5 pixels; and a 7-channel panel after a wide one.
        Case(shape: .init(inputHeight: 2, inputWidth: 37, inputChannels: 32, outputHeight: 2, outputWidth: 37, outputChannels: 8, kernelHeight: 1, kernelWidth: 1), epilogue: .clampAndPrelu),
        Case(shape: .init(inputHeight: 3, inputWidth: 9, inputChannels: 16, outputHeight: 3, outputWidth: 9, outputChannels: 23, kernelHeight: 1, kernelWidth: 1), epilogue: .relu6),
        // Full range's 48×48×32→12 in small: pointwise runs of panels of 9 to 12 channels (on cores with
        // 128-bit FMA units, AVX2 tiles with the last 4 channels in SSE registers): 12 and 10 channels
        // after a wide panel, and a lone 12-channel panel.
        Case(shape: .init(inputHeight: 4, inputWidth: 15, inputChannels: 20, outputHeight: 4, outputWidth: 15, outputChannels: 28, kernelHeight: 1, kernelWidth: 1), epilogue: .relu6),
        Case(shape: .init(inputHeight: 3, inputWidth: 13, inputChannels: 9, outputHeight: 3, outputWidth: 13, outputChannels: 26, kernelHeight: 1, kernelWidth: 1), epilogue: .prelu),
        Case(shape: .init(inputHeight: 2, inputWidth: 30, inputChannels: 32, outputHeight: 2, outputWidth: 30, outputChannels: 12, kernelHeight: 1, kernelWidth: 1), epilogue: .clampAndPrelu),
        // One output channel (full range's classifier): pixels in fours, each four's sums stored as
        // one vector, then a partial four; depths of whole 16-float steps and of an 8-float step
        // plus a masked one (44 = 2 × 16 + 8 + 4).
        Case(shape: .init(inputHeight: 3, inputWidth: 11, inputChannels: 48, outputHeight: 3, outputWidth: 11, outputChannels: 1, kernelHeight: 1, kernelWidth: 1)),
        Case(shape: .init(inputHeight: 5, inputWidth: 5, inputChannels: 44, outputHeight: 5, outputWidth: 5, outputChannels: 2, kernelHeight: 1, kernelWidth: 1), epilogue: .prelu),
    ]

    @Test(arguments: cases, KernelISA.available)
    func matchesReference(_ testCase: Case, isa: KernelISA) {
        let shape = testCase.shape
        var random = SplitMix64(seed: fixedSeed(testCase.testDescription))
        let input = random.floats(shape.inputHeight * shape.inputWidth * shape.inputChannels)
        let weights = random.floats(shape.outputChannels * shape.kernelHeight * shape.kernelWidth * shape.inputChannels)
        let bias = random.floats(shape.outputChannels)
        let epilogue = makeEpilogue(testCase.epilogue, channels: shape.outputChannels, random: &random)

        let expected = reference(shape, input, weights, bias, epilogue)
        let magnitudes = reference(shape, input.map(abs), weights.map(abs), bias.map(abs), ConvolutionEpilogue())
        let accumulation = Float(shape.kernelHeight * shape.kernelWidth * shape.inputChannels + 1)

        let sentinel: Float = 1234.5
        var output = [Float](repeating: sentinel, count: expected.count)
        let packed = weights.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                PackedConvolution(shape: shape, weightsOHWI: w, bias: b, epilogue: epilogue, isa: isa)
            }
        }
        // Two row ranges, as threads would split them; the first leaves the rest untouched.
        let split = shape.outputHeight / 2
        let rowLength = shape.outputWidth * shape.outputChannels
        output.withUnsafeMutableBufferPointer { out in
            packed.run(input: input, output: out.baseAddress!, outputRows: 0..<split)
        }
        #expect(output[(split * rowLength)...].allSatisfy { $0 == sentinel })
        output.withUnsafeMutableBufferPointer { out in
            packed.run(input: input, output: out.baseAddress!, outputRows: split..<shape.outputHeight)
        }
        // Both sides round each of `accumulation` sums: at most that many ulps of the magnitude each.
        let problems = mismatches(output, expected) { 2 * accumulation * Float.ulpOfOne * magnitudes[$0] }
        #expect(problems.isEmpty, "\(isa): \(problems)")
    }

    enum Residual: String, CaseIterable, Sendable { case separate, inOutput, fewerChannels }

    /// A fused residual ADD: added after the bias, before clamp and PReLU, also in place and
    /// with fewer channels than the output (a fused channel PAD: the rest add zero).
    @Test(arguments: [cases[1], cases[2], cases[4], cases[9], cases[12], cases[13], cases[17], cases[18], cases[19], cases[20], cases[22], cases[23], cases[24], cases[25], cases[27], cases[28], cases[30], cases[31], cases[32], cases[33], cases[34], cases[35]], Residual.allCases)
    func residualMatchesReference(_ testCase: Case, residual placement: Residual) {
        let shape = testCase.shape
        var random = SplitMix64(seed: fixedSeed("residual " + testCase.testDescription))
        let input = random.floats(shape.inputHeight * shape.inputWidth * shape.inputChannels)
        let weights = random.floats(shape.outputChannels * shape.kernelHeight * shape.kernelWidth * shape.inputChannels)
        let bias = random.floats(shape.outputChannels)
        let epilogue = makeEpilogue(.clampAndPrelu, channels: shape.outputChannels, random: &random)
        let residualChannels = placement == .fewerChannels ? (shape.outputChannels + 1) / 2 : shape.outputChannels
        let pixels = shape.outputHeight * shape.outputWidth
        let residual = random.floats(pixels * residualChannels, in: -2...2)

        var expected = [Float](repeating: .nan, count: pixels * shape.outputChannels)
        var magnitudes = expected
        weights.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                ReferenceKernels.convolution(
                    shape: shape, input: input, weightsOHWI: w, bias: b, epilogue: epilogue, residual: residual,
                    residualChannels: residualChannels, output: &expected, outputRows: 0..<shape.outputHeight)
            }
        }
        let absolute = (input.map(abs), weights.map(abs), bias.map(abs), residual.map(abs))
        absolute.1.withUnsafeBufferPointer { w in
            absolute.2.withUnsafeBufferPointer { b in
                ReferenceKernels.convolution(
                    shape: shape, input: absolute.0, weightsOHWI: w, bias: b, epilogue: .init(), residual: absolute.3,
                    residualChannels: residualChannels, output: &magnitudes, outputRows: 0..<shape.outputHeight)
            }
        }
        let accumulation = Float(shape.kernelHeight * shape.kernelWidth * shape.inputChannels + 2)

        for isa in KernelISA.available {
            let packed = weights.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in
                    PackedConvolution(shape: shape, weightsOHWI: w, bias: b, epilogue: epilogue, isa: isa)
                }
            }
            var output: [Float]
            switch placement {
            case .separate, .fewerChannels:
                output = [Float](repeating: .nan, count: expected.count)
                packed.run(
                    input: input, residual: residual, residualChannels: residualChannels, output: &output,
                    outputRows: 0..<shape.outputHeight)
            case .inOutput:
                output = residual
                output.withUnsafeMutableBufferPointer { out in
                    packed.run(input: input, residual: out.baseAddress!, output: out.baseAddress!, outputRows: 0..<shape.outputHeight)
                }
            }
            let problems = mismatches(output, expected) { 2 * accumulation * Float.ulpOfOne * magnitudes[$0] }
            #expect(problems.isEmpty, "\(isa): \(problems)")
        }
    }

    /// Threads may share a layer by panels of output channels as well as by rows: any cut gives
    /// the whole run's values bit for bit (the one-pixel GEMV included), and a part writes only its block.
    @Test(arguments: [cases[2], cases[4], cases[16], cases[17], cases[18], cases[19], cases[22], cases[25], cases[28], cases[30], cases[32], cases[33]], KernelISA.available)
    func channelRangesGiveTheWholeRunsValues(_ testCase: Case, isa: KernelISA) {
        let shape = testCase.shape
        var random = SplitMix64(seed: fixedSeed("channels " + testCase.testDescription))
        let input = random.floats(shape.inputHeight * shape.inputWidth * shape.inputChannels)
        let weights = random.floats(shape.outputChannels * shape.kernelHeight * shape.kernelWidth * shape.inputChannels)
        let bias = random.floats(shape.outputChannels)
        let epilogue = makeEpilogue(.clampAndPrelu, channels: shape.outputChannels, random: &random)
        let pixels = shape.outputHeight * shape.outputWidth
        let residualChannels = shape.outputChannels - 3
        let residual = random.floats(pixels * residualChannels, in: -2...2)
        let packed = weights.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in PackedConvolution(shape: shape, weightsOHWI: w, bias: b, epilogue: epilogue, isa: isa) }
        }
        var whole = [Float](repeating: .nan, count: pixels * shape.outputChannels)
        packed.run(input: input, residual: residual, residualChannels: residualChannels, output: &whole, outputRows: 0..<shape.outputHeight)

        let width = PackedConvolution.panelWidth
        let sentinel: Float = 1234.5
        var parts = [Float](repeating: sentinel, count: whole.count)
        // The last panel first, then the rest in two row bands, as a mixed split would go.
        let lastPanel = (shape.outputChannels - 1) / width * width
        packed.run(
            input: input, residual: residual, residualChannels: residualChannels, output: &parts,
            outputRows: 0..<shape.outputHeight, outputChannels: lastPanel..<shape.outputChannels)
        for pixel in 0 ..< pixels {
            for channel in 0 ..< shape.outputChannels {
                #expect((parts[pixel * shape.outputChannels + channel] == sentinel) == (channel < lastPanel))
            }
        }
        let band = shape.outputHeight / 2
        for rows in [0..<band, band..<shape.outputHeight] {
            packed.run(
                input: input, residual: residual, residualChannels: residualChannels, output: &parts,
                outputRows: rows, outputChannels: 0..<lastPanel)
        }
        #expect(parts == whole, "\(isa)")
    }

    @Test(arguments: KernelISA.available)
    func biasDefaultsToZero(isa: KernelISA) {
        let shape = ConvolutionShape(inputHeight: 2, inputWidth: 3, inputChannels: 5, outputHeight: 2, outputWidth: 3, outputChannels: 9, kernelHeight: 1, kernelWidth: 1)
        var random = SplitMix64(seed: 7)
        let input = random.floats(30), weights = random.floats(45)
        let expected = reference(shape, input, weights, [Float](repeating: 0, count: 9), ConvolutionEpilogue())
        var output = [Float](repeating: .nan, count: 54)
        let packed = weights.withUnsafeBufferPointer { PackedConvolution(shape: shape, weightsOHWI: $0, bias: nil, epilogue: .init(), isa: isa) }
        output.withUnsafeMutableBufferPointer { packed.run(input: input, output: $0.baseAddress!, outputRows: 0..<2) }
        #expect(mismatches(output, expected) { _ in 1e-5 }.isEmpty)
    }

    private func reference(
        _ shape: ConvolutionShape, _ input: [Float], _ weights: [Float], _ bias: [Float], _ epilogue: ConvolutionEpilogue
    ) -> [Float] {
        var output = [Float](repeating: .nan, count: shape.outputHeight * shape.outputWidth * shape.outputChannels)
        weights.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                output.withUnsafeMutableBufferPointer { out in
                    ReferenceKernels.convolution(
                        shape: shape, input: input, weightsOHWI: w, bias: b, epilogue: epilogue,
                        output: out.baseAddress!, outputRows: 0..<shape.outputHeight)
                }
            }
        }
        return output
    }
}

/// The epilogue a test case names, with seeded slopes in [-1, 1].
func makeEpilogue(_ kind: ConvolutionKernelTests.Epilogue, channels: Int, random: inout SplitMix64) -> ConvolutionEpilogue {
    switch kind {
    case .none: ConvolutionEpilogue()
    case .relu6: ConvolutionEpilogue(min: 0, max: 6)
    case .prelu: ConvolutionEpilogue(preluSlopes: random.floats(channels))
    case .clampAndPrelu: ConvolutionEpilogue(min: -0.5, max: 1, preluSlopes: random.floats(channels))
    }
}
