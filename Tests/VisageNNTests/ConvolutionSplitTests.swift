import Testing
import VisageNN

/// The engine's rule (`OutputSplit`): a convolution's output shared among threads by bands of rows,
/// runs of channel panels or both gives the whole run's values bit for bit, so 1 and 2 threads
/// agree to the last bit. A band's pixels fall into other tiles than the whole run's (a band of 13
/// one-row pixels ends in a lone pixel, which the whole run's 12-pixel tiles never leave), so each
/// output's sum must not depend on which tile, tile slot or one-pixel path computes it.
struct ConvolutionSplitTests {
    /// A split: the row bands, and the channel ranges each band is run with.
    struct Split: CustomStringConvertible {
        var rows: [Range<Int>]
        var channels: [Range<Int>]
        var description: String { "rows \(rows.map { "\($0.lowerBound)..<\($0.upperBound)" }) × channels \(channels.map { "\($0.lowerBound)..<\($0.upperBound)" })" }
    }

    /// Row bands of one row each and as 2 and 3 threads would take them, each with the whole
    /// channel range, the last panel apart from the rest, and every panel on its own; the whole
    /// row range with the channel splits.
    static func splits(_ shape: ConvolutionShape) -> [Split] {
        let height = shape.outputHeight, channels = shape.outputChannels, width = PackedConvolution.panelWidth
        let lastPanel = (channels - 1) / width * width
        var rowSplits = [(0 ..< height).map { $0 ..< $0 + 1 }]
        for parts in 2 ... 3 where parts < height {
            rowSplits.append((0 ..< parts).map { height * $0 / parts ..< height * ($0 + 1) / parts })
        }
        var channelSplits = [[0 ..< channels]]
        if lastPanel > 0 { channelSplits.append([0 ..< lastPanel, lastPanel ..< channels]) }
        if lastPanel > width { channelSplits.append(stride(from: 0, to: channels, by: width).map { $0 ..< min($0 + width, channels) }) }
        var splits = rowSplits.flatMap { rows in channelSplits.map { Split(rows: rows, channels: $0) } }
        splits += channelSplits.dropFirst().map { Split(rows: [0 ..< height], channels: $0) }
        return splits
    }

    /// The splits of `shape` whose values differ from the whole run's in any bit, with the first
    /// differing output; a part writing outside its block shows as a sentinel left or overwritten.
    static func failures(_ shape: ConvolutionShape, isa: KernelISA, epilogue kind: ConvolutionKernelTests.Epilogue, residual: Bool) -> [String] {
        let name = "\(shape.outputHeight)×\(shape.outputWidth)×\(shape.inputChannels)→\(shape.outputChannels) s\(shape.strideY) \(kind)\(residual ? " +residual" : "")"
        var random = SplitMix64(seed: fixedSeed("split " + name))
        let input = random.floats(shape.inputHeight * shape.inputWidth * shape.inputChannels)
        let weights = random.floats(shape.outputChannels * shape.kernelHeight * shape.kernelWidth * shape.inputChannels)
        let bias = random.floats(shape.outputChannels)
        let epilogue = makeEpilogue(kind, channels: shape.outputChannels, random: &random)
        let pixels = shape.outputHeight * shape.outputWidth
        let residualChannels = max(1, shape.outputChannels - 1)
        let skip = residual ? random.floats(pixels * residualChannels, in: -2 ... 2) : nil
        let packed = weights.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in PackedConvolution(shape: shape, weightsOHWI: w, bias: b, epilogue: epilogue, isa: isa) }
        }
        func run(_ output: inout [Float], rows: Range<Int>, channels: Range<Int>) {
            if let skip {
                packed.run(input: input, residual: skip, residualChannels: residualChannels, output: &output, outputRows: rows, outputChannels: channels)
            } else {
                packed.run(input: input, output: &output, outputRows: rows, outputChannels: channels)
            }
        }
        var whole = [Float](repeating: .nan, count: pixels * shape.outputChannels)
        run(&whole, rows: 0 ..< shape.outputHeight, channels: 0 ..< shape.outputChannels)

        var failures: [String] = []
        for split in splits(shape) {
            let sentinel = Float(bitPattern: 0x7FC0_1234)  // a NaN no run produces from these inputs
            var parts = [Float](repeating: sentinel, count: whole.count)
            for rows in split.rows {
                for channels in split.channels { run(&parts, rows: rows, channels: channels) }
            }
            if let i = parts.indices.first(where: { parts[$0].bitPattern != whole[$0].bitPattern }) {
                let (pixel, channel) = i.quotientAndRemainder(dividingBy: shape.outputChannels)
                failures.append("\(isa) \(name), \(split): pixel \(pixel) channel \(channel) \(parts[i]) vs whole \(whole[i])")
            }
        }
        return failures
    }

    /// Output row widths: one pixel and 13 (a band ends in a lone pixel after a 12-pixel tile, 13
    /// = 12 + 1), 25 (two tiles and one), and 2, 5, 12, 24 and 37, which end otherwise.
    static let widths = [1, 13, 25, 2, 5, 12, 24, 37]

    /// 1×1 layers whose last panel has 1–4 channels (the dot kernel's: 1–4 and 17–20 outputs) and
    /// around them (5, 8, 16, 21, 33), at depths of 7 (one masked step), 44 (16-float steps, an
    /// 8-float step and a masked one) and 48 (full range's classifier), with and without a
    /// residual; stride 1 (the pointwise path) and stride 2 (the general tiles).
    @Test(arguments: KernelISA.available, widths)
    func oneByOneSplitsGiveTheWholeRunsValues(isa: KernelISA, width: Int) {
        var failures: [String] = []
        for channels in [1, 2, 3, 4, 17, 18, 19, 20, 5, 8, 16, 21, 33] {
            for depth in [7, 44, 48] {
                let residual = depth != 7
                let kind: ConvolutionKernelTests.Epilogue = depth == 44 ? .clampAndPrelu : depth == 48 ? .prelu : .none
                let pointwise = ConvolutionShape(
                    inputHeight: 5, inputWidth: width, inputChannels: depth, outputHeight: 5, outputWidth: width,
                    outputChannels: channels, kernelHeight: 1, kernelWidth: 1)
                failures += Self.failures(pointwise, isa: isa, epilogue: kind, residual: residual)
                let strided = ConvolutionShape(
                    inputHeight: 9, inputWidth: 2 * width - 1, inputChannels: depth, outputHeight: 5, outputWidth: width,
                    outputChannels: channels, kernelHeight: 1, kernelWidth: 1, strideY: 2, strideX: 2)
                failures += Self.failures(strided, isa: isa, epilogue: kind, residual: residual)
            }
        }
        #expect(failures.isEmpty, "\(failures.count) splits differ:\n\(failures.prefix(12).joined(separator: "\n"))")
    }

    /// Every shape of `ConvolutionKernelTests` (3×3, 5×5, 2×2, strided, padded, deep), split the same ways.
    @Test(arguments: KernelISA.available)
    func everyKernelCaseSplitsLikeTheWhole(isa: KernelISA) {
        var failures: [String] = []
        for testCase in ConvolutionKernelTests.cases {
            failures += Self.failures(testCase.shape, isa: isa, epilogue: testCase.epilogue, residual: false)
            failures += Self.failures(testCase.shape, isa: isa, epilogue: .clampAndPrelu, residual: true)
        }
        #expect(failures.isEmpty, "\(failures.count) splits differ:\n\(failures.prefix(12).joined(separator: "\n"))")
    }
}
