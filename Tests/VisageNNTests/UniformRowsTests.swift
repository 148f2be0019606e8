import Testing
import VisageModels
import VisageNN

/// Runs of pixels known to come out equal (a letterbox's constant bands, `UniformRows`): the
/// convolutions compute one pixel of each run and copy it, and must give the values of computing
/// every pixel, bit for bit.
struct UniformRowsTests {
    /// A `rows × columns × channels` input whose rows in `bands` are each one random pixel repeated
    /// (a letterbox's bands; each row its own value, so rows differ from each other), the rest random.
    static func banded(rows: Int, columns: Int, channels: Int, bands: [Range<Int>], random: inout SplitMix64) -> [Float] {
        var values = random.floats(rows * columns * channels)
        for band in bands {
            for y in band {
                let pixel = random.floats(channels)
                for x in 0 ..< columns {
                    for c in 0 ..< channels { values[(y * columns + x) * channels + c] = pixel[c] }
                }
            }
        }
        return values
    }

    static func bitsEqual(_ a: [Float], _ b: [Float]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern }
    }

    @Test func scanFindsRowsOfOnePixelRepeated() {
        var random = SplitMix64(seed: fixedSeed("scan"))
        var values = Self.banded(rows: 7, columns: 5, channels: 3, bands: [0 ..< 2, 6 ..< 7], random: &random)
        // Row 2 equal but for its last value's sign bit (negative zero against zero): not uniform.
        for x in 0 ..< 5 { for c in 0 ..< 3 { values[(2 * 5 + x) * 3 + c] = 0 } }
        values[(2 * 5 + 4) * 3 + 2] = -0.0
        let rows = UniformRows.scanned(values, rows: 7, columns: 5, channels: 3)
        #expect(rows == [0, 5, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5])
    }

    @Test func describesWindowsInsideTheRuns() {
        // 5×5, stride 2, SAME over 11 columns: pad left 2 (output 6 wide); rows 0–3 uniform over all columns.
        let shape = ConvolutionShape(
            inputHeight: 9, inputWidth: 11, inputChannels: 1, outputHeight: 5, outputWidth: 6, outputChannels: 1,
            kernelHeight: 5, kernelWidth: 5, strideY: 2, strideX: 2, padTop: 2, padLeft: 2)
        let input: [Int32] = [0, 11, 0, 11, 0, 11, 0, 11, 0, 0, 0, 0, 0, 0, 3, 9, 0, 11]
        // Row 0 reads input rows 0–2 (and two padding rows): columns x with 0 <= 2x - 2 and 2x + 2 < 11: 1..<5.
        // Row 1 reads rows 0–4, row 4 unknown. Row 4 reads rows 6–8: row 6 unknown.
        #expect(shape.uniformRows(input: input) == [1, 5, 0, 0, 0, 0, 0, 0, 0, 0])
        let last: [Int32] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 9, 1, 11, 0, 11]
        // Row 4 reads rows 6–8: columns 3..<9 together, so 2x - 2 >= 3 and 2x + 2 < 9: x = 3.
        #expect(shape.uniformRows(input: last) == [0, 0, 0, 0, 0, 0, 0, 0, 3, 4])
    }

    /// Convolution shapes with odd sizes, strides 1 and 2, SAME and VALID padding, 1×1 (pointwise
    /// tiles), 3×3 and 5×5 (the first layer's), channel counts that take the narrow, 24-wide and dot paths.
    static let convolutions: [ConvolutionShape] = {
        var shapes: [ConvolutionShape] = []
        for (kernel, stride, same, inputChannels, outputChannels, height, width) in [
            (1, 1, false, 16, 24, 11, 19), (1, 1, false, 8, 17, 13, 29), (1, 1, false, 24, 2, 9, 23),
            (3, 1, true, 5, 16, 9, 13), (3, 2, true, 7, 24, 13, 27), (3, 2, false, 3, 8, 11, 17),
            (5, 2, true, 3, 24, 21, 33), (5, 1, false, 4, 40, 16, 31), (2, 2, true, 6, 9, 12, 14),
        ] {
            let (outputHeight, padTop) = same ? ((height + stride - 1) / stride, max(((height + stride - 1) / stride - 1) * stride + kernel - height, 0) / 2)
                : ((height - kernel) / stride + 1, 0)
            let (outputWidth, padLeft) = same ? ((width + stride - 1) / stride, max(((width + stride - 1) / stride - 1) * stride + kernel - width, 0) / 2)
                : ((width - kernel) / stride + 1, 0)
            shapes.append(ConvolutionShape(
                inputHeight: height, inputWidth: width, inputChannels: inputChannels,
                outputHeight: outputHeight, outputWidth: outputWidth, outputChannels: outputChannels,
                kernelHeight: kernel, kernelWidth: kernel, strideY: stride, strideX: stride, padTop: padTop, padLeft: padLeft))
        }
        return shapes
    }()

    @Test(arguments: convolutions)
    func convolutionCopiesAsItComputes(_ shape: ConvolutionShape) {
        let name = "\(shape.inputHeight)×\(shape.inputWidth)×\(shape.inputChannels)→\(shape.outputChannels) k\(shape.kernelHeight) s\(shape.strideY)"
        var random = SplitMix64(seed: fixedSeed("uniform " + name))
        let h = shape.inputHeight
        // Bands above and below, and one uniform row in the middle.
        let input = Self.banded(
            rows: h, columns: shape.inputWidth, channels: shape.inputChannels, bands: [0 ..< h / 3, h / 2 ..< h / 2 + 1, h - h / 4 ..< h],
            random: &random)
        let weights = random.floats(shape.outputChannels * shape.kernelHeight * shape.kernelWidth * shape.inputChannels)
        let bias = random.floats(shape.outputChannels)
        let epilogue = ConvolutionEpilogue(min: -0.5, max: 2, preluSlopes: random.floats(shape.outputChannels))
        let uniform = shape.uniformRows(input: UniformRows.scanned(
            input, rows: h, columns: shape.inputWidth, channels: shape.inputChannels))
        let runs = (0 ..< shape.outputHeight).filter { uniform[2 * $0 + 1] - uniform[2 * $0] >= 2 }
        #expect(!runs.isEmpty, "\(name): no run to skip")
        let pixels = shape.outputHeight * shape.outputWidth
        // The residual: uniform where the output is (a band of its own), random elsewhere.
        var residual = random.floats(pixels * shape.outputChannels)
        for y in runs {
            let value = random.floats(shape.outputChannels)
            for x in Int(uniform[2 * y]) ..< Int(uniform[2 * y + 1]) {
                for c in 0 ..< shape.outputChannels { residual[(y * shape.outputWidth + x) * shape.outputChannels + c] = value[c] }
            }
        }
        for isa in KernelISA.allCases where isa.isAvailable {
            let packed = weights.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in PackedConvolution(shape: shape, weightsOHWI: w, bias: b, epilogue: epilogue, isa: isa) }
            }
            for withResidual in [false, true] {
                func run(rows: [Range<Int>], channels: [Range<Int>], uniform: [Int32]?) -> [Float] {
                    var output = [Float](repeating: .nan, count: pixels * shape.outputChannels)
                    for band in rows {
                        for part in channels {
                            let u = uniform ?? []
                            u.withUnsafeBufferPointer { u in
                                residual.withUnsafeBufferPointer { r in
                                    packed.run(
                                        input: input, residual: withResidual ? r.baseAddress : nil, output: &output, outputRows: band,
                                        outputChannels: part, uniformColumns: uniform == nil ? nil : u.baseAddress)
                                }
                            }
                        }
                    }
                    return output
                }
                let whole = run(rows: [0 ..< shape.outputHeight], channels: [0 ..< shape.outputChannels], uniform: nil)
                let split = shape.outputHeight / 2, panel = PackedConvolution.panelWidth
                let channelSplit = shape.outputChannels > panel ? [0 ..< panel, panel ..< shape.outputChannels] : [0 ..< shape.outputChannels]
                for (rows, channels) in [
                    ([0 ..< shape.outputHeight], [0 ..< shape.outputChannels]),
                    ([0 ..< split, split ..< shape.outputHeight], [0 ..< shape.outputChannels]),
                    ([0 ..< shape.outputHeight], channelSplit),
                    ((0 ..< shape.outputHeight).map { $0 ..< $0 + 1 }, channelSplit),
                ] {
                    let skipped = run(rows: rows, channels: channels, uniform: uniform)
                    #expect(Self.bitsEqual(skipped, whole), "\(name) \(isa)\(withResidual ? " +residual" : ""): rows \(rows) channels \(channels)")
                }
            }
        }
    }

    /// Depthwise convolution (computing every pixel) and max pooling: the runs they describe must
    /// hold equal pixels in what they computed.
    @Test(arguments: [(3, 1, true), (3, 2, true), (3, 2, false), (5, 1, true), (2, 2, false), (2, 2, true)])
    func depthwiseAndPoolingRunsHoldEqualPixels(_ kernel: Int, _ stride: Int, _ same: Bool) {
        let (height, width, channels) = (15, 23, 19)
        let outputHeight = same ? (height + stride - 1) / stride : (height - kernel) / stride + 1
        let outputWidth = same ? (width + stride - 1) / stride : (width - kernel) / stride + 1
        let padTop = same ? max((outputHeight - 1) * stride + kernel - height, 0) / 2 : 0
        let padLeft = same ? max((outputWidth - 1) * stride + kernel - width, 0) / 2 : 0
        let shape = ConvolutionShape(
            inputHeight: height, inputWidth: width, inputChannels: channels, outputHeight: outputHeight, outputWidth: outputWidth,
            outputChannels: channels, kernelHeight: kernel, kernelWidth: kernel, strideY: stride, strideX: stride,
            padTop: padTop, padLeft: padLeft)
        var random = SplitMix64(seed: fixedSeed("uniform dw \(kernel) \(stride) \(same)"))
        let input = Self.banded(rows: height, columns: width, channels: channels, bands: [0 ..< 6, 11 ..< 15], random: &random)
        let uniform = shape.uniformRows(input: UniformRows.scanned(input, rows: height, columns: width, channels: channels))
        #expect((0 ..< outputHeight).contains { uniform[2 * $0 + 1] - uniform[2 * $0] >= 2 })
        let weights = random.floats(kernel * kernel * channels), bias = random.floats(channels)
        for isa in KernelISA.allCases where isa.isAvailable {
            var depthwise = [Float](repeating: .nan, count: outputHeight * outputWidth * channels)
            var pooled = depthwise
            let packed = weights.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in
                    PackedDepthwiseConvolution(
                        shape: shape, weightsHWC: w, bias: b, epilogue: .init(min: -1, max: 1, preluSlopes: random.floats(channels)), isa: isa)
                }
            }
            packed.run(input: input, output: &depthwise, outputRows: 0 ..< outputHeight)
            Pooling.maxPool(shape: shape, input: input, output: &pooled, outputRows: 0 ..< outputHeight, min: -0.5, max: 0.75, isa: isa)
            for (kind, output) in [("depthwise", depthwise), ("max pool", pooled)] {
                for y in 0 ..< outputHeight where uniform[2 * y + 1] > uniform[2 * y] {
                    let first = (y * outputWidth + Int(uniform[2 * y])) * channels
                    for x in Int(uniform[2 * y]) ..< Int(uniform[2 * y + 1]) {
                        let pixel = (y * outputWidth + x) * channels
                        #expect(
                            Self.bitsEqual(Array(output[pixel ..< pixel + channels]), Array(output[first ..< first + channels])),
                            "\(kind) \(isa) k\(kernel) s\(stride): row \(y) column \(x)")
                    }
                }
            }
        }
    }

    /// 3×3 depthwise rows that read only rows of one repeated pixel (or padding) are computed as a
    /// narrow row with the same edges and copied out: the values must be those of computing every
    /// pixel, bit for bit, on every kernel set, whole or split by rows. Strides 1 and 2, SAME, VALID
    /// and one-sided padding (a fused PAD), odd and even widths, channel counts that take whole,
    /// partial and SSE chunks.
    @Test(arguments: [
        (1, 1, 1, 9, 23), (1, 1, 1, 3, 16), (1, 0, 0, 19, 8), (2, 0, 0, 19, 23), (2, 0, 0, 4, 64), (2, 1, 1, 12, 15),
        (1, 1, 0, 7, 13), (2, 0, 1, 28, 10), (1, 0, 0, 33, 5),
    ])
    func depthwiseComputesUniformRowsNarrow(_ stride: Int, _ padTop: Int, _ padLeft: Int, _ channels: Int, _ width: Int) {
        let height = 17
        // One-sided padding (padTop 1, padLeft 0, or the reverse) pads before only; SAME pads as TFLite does.
        let same = padTop == padLeft && padTop > 0
        let padRight = same ? max(((width + stride - 1) / stride - 1) * stride + 3 - width, 0) - padLeft : 0
        let padBottom = same ? max(((height + stride - 1) / stride - 1) * stride + 3 - height, 0) - padTop : 0
        let outputWidth = (width + padLeft + padRight - 3) / stride + 1, outputHeight = (height + padTop + padBottom - 3) / stride + 1
        let shape = ConvolutionShape(
            inputHeight: height, inputWidth: width, inputChannels: channels, outputHeight: outputHeight, outputWidth: outputWidth,
            outputChannels: channels, kernelHeight: 3, kernelWidth: 3, strideY: stride, strideX: stride, padTop: padTop, padLeft: padLeft)
        let name = "s\(stride) pad \(padTop),\(padLeft) \(height)×\(width)×\(channels)"
        var random = SplitMix64(seed: fixedSeed("uniform narrow dw " + name))
        let input = Self.banded(
            rows: height, columns: width, channels: channels, bands: [0 ..< 5, 8 ..< 9, 13 ..< 17], random: &random)
        let uniform = UniformRows.scanned(input, rows: height, columns: width, channels: channels)
        Self.expectUniformRowsChangeNoBits(
            shape: shape, input: input, uniform: uniform, split: outputHeight / 2, name: name, random: &random)
    }

    /// Stride-1 3×3 depthwise rows whose input rows hold one pixel repeated over only part of the row
    /// (a letterbox's bands after a padded convolution: their edge columns differ) are computed with the
    /// middle of the common run cut out and copied back: the values must be those of computing every
    /// pixel, bit for bit, on every kernel set, whole or split by rows. Each band row has its own pixel
    /// and run; one band's rows have different runs, one row's run is not described, and a band row has
    /// a picture row between it and the next band (rows that read both compute whole).
    @Test(arguments: [
        (1, 1, 24, 64), (1, 1, 9, 40), (0, 0, 33, 30), (1, 0, 7, 23), (0, 1, 3, 17), (1, 1, 4, 12), (1, 1, 28, 13),
    ])
    func depthwiseCutsPartialRunsOutOfRows(_ padTop: Int, _ padLeft: Int, _ channels: Int, _ width: Int) {
        let height = 16
        let same = padTop == padLeft && padTop > 0
        let padRight = same ? 1 : 0, padBottom = same ? 1 : 0
        let outputWidth = width + padLeft + padRight - 2, outputHeight = height + padTop + padBottom - 2
        let shape = ConvolutionShape(
            inputHeight: height, inputWidth: width, inputChannels: channels, outputHeight: outputHeight, outputWidth: outputWidth,
            outputChannels: channels, kernelHeight: 3, kernelWidth: 3, strideY: 1, strideX: 1, padTop: padTop, padLeft: padLeft)
        let name = "pad \(padTop),\(padLeft) \(height)×\(width)×\(channels)"
        var random = SplitMix64(seed: fixedSeed("uniform cut dw " + name))
        var input = random.floats(height * width * channels)
        var uniform = [Int32](repeating: 0, count: 2 * height)
        // Rows 0–4: runs [1, width − 1), [2, width − 3), [1, width − 1), [0, width), [3, width − 2);
        // row 5 a picture row; row 6 in a band but not described; rows 12–15: [1, width − 1) but row 14 [2, width).
        let runs: [(Int, Int, Int)] = [
            (0, 1, width - 1), (1, 2, width - 3), (2, 1, width - 1), (3, 0, width), (4, 3, width - 2),
            (12, 1, width - 1), (13, 1, width - 1), (14, 2, width), (15, 1, width - 1),
        ]
        for (y, lo, hi) in runs + [(6, 1, width - 1)] {
            let pixel = random.floats(channels)
            for x in lo ..< hi {
                for c in 0 ..< channels { input[(y * width + x) * channels + c] = pixel[c] }
            }
            if y != 6 { (uniform[2 * y], uniform[2 * y + 1]) = (Int32(lo), Int32(hi)) }
        }
        Self.expectUniformRowsChangeNoBits(shape: shape, input: input, uniform: uniform, split: 3, name: name, random: &random)
    }

    /// Runs a 3×3 depthwise convolution of `shape` (weights, bias and PReLU slopes drawn from `random`)
    /// on every kernel set, and expects the same bits with the uniform-row description `uniform` as
    /// without it: whole, split in two at output row `split`, and one output row at a time.
    static func expectUniformRowsChangeNoBits(
        shape: ConvolutionShape, input: [Float], uniform: [Int32], split: Int, name: String, random: inout SplitMix64
    ) {
        let channels = shape.inputChannels, outputHeight = shape.outputHeight
        let weights = random.floats(9 * channels), bias = random.floats(channels), slopes = random.floats(channels)
        for isa in KernelISA.allCases where isa.isAvailable {
            let packed = weights.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in
                    PackedDepthwiseConvolution(
                        shape: shape, weightsHWC: w, bias: b, epilogue: .init(min: -1, max: 1.5, preluSlopes: slopes), isa: isa)
                }
            }
            var whole = [Float](repeating: .nan, count: outputHeight * shape.outputWidth * channels)
            packed.run(input: input, output: &whole, outputRows: 0 ..< outputHeight)
            for rows in [[0 ..< outputHeight], [0 ..< split, split ..< outputHeight], (0 ..< outputHeight).map { $0 ..< $0 + 1 }] {
                var described = [Float](repeating: .nan, count: whole.count)
                uniform.withUnsafeBufferPointer { u in
                    for band in rows { packed.run(input: input, output: &described, outputRows: band, uniformInput: u.baseAddress) }
                }
                let first = described.indices.first { described[$0].bitPattern != whole[$0].bitPattern }
                #expect(first == nil, "\(name) \(isa): rows \(rows), first difference at value \(first ?? -1)")
            }
        }
    }

    /// A letterbox of a `width × height` picture in a square input: the rows above and below hold
    /// one value (the warp's border), the picture random.
    static func letterbox(_ model: Model, width: Int, height: Int, seed: String) -> [Float] {
        let shape = model.inputs[0].shape
        let (rows, columns, channels) = (shape[1], shape[2], shape[3])
        var random = SplitMix64(seed: fixedSeed(seed))
        var values = [Float](repeating: -1, count: rows * columns * channels)
        let pictureRows = min(rows, rows * height / width), pictureColumns = min(columns, columns * width / height)
        let top = (rows - pictureRows) / 2, left = (columns - pictureColumns) / 2
        for y in top ..< top + pictureRows {
            for x in left ..< left + pictureColumns {
                for c in 0 ..< channels { values[(y * columns + x) * channels + c] = Float.random(in: -1 ... 1, using: &random) }
            }
        }
        return values
    }

    struct Aspect: Sendable, CustomTestStringConvertible {
        var width: Int, height: Int
        var testDescription: String { "\(width):\(height)" }
    }

    static let aspects = [Aspect(width: 4, height: 3), Aspect(width: 3, height: 2), Aspect(width: 16, height: 9),
                          Aspect(width: 3, height: 4), Aspect(width: 1, height: 1)]

    /// The detectors on letterboxes at several aspect ratios, at 1 and 2 threads: the same outputs,
    /// bit for bit, with and without the skipping, and wide bands skip work.
    @Test(arguments: [BundledModel.faceDetectorShortRange, .faceDetectorFullRange], aspects)
    func detectorsGiveTheSameBits(_ bundled: BundledModel, _ aspect: Aspect) throws {
        let model = try Model(data: try bundled.load())
        let input = Self.letterbox(model, width: aspect.width, height: aspect.height, seed: "\(bundled) \(aspect.testDescription)")
        var reference: [[Float]]?
        for threads in [1, 2] {
            for skips in [false, true] {
                var options = InterpreterOptions(threads: threads)
                options.skipsUniformColumns = skips
                let interpreter = try Interpreter(model: model, options: options)
                interpreter.withInput { _ = $0.update(fromContentsOf: input) }
                // Twice: the second invocation must forget the first's rows.
                for _ in 0 ..< 2 { try interpreter.invoke() }
                let outputs = model.outputs.indices.map { interpreter.output($0) }
                if let reference {
                    for (index, output) in outputs.enumerated() {
                        #expect(Self.bitsEqual(output, reference[index]), "output \(index), \(threads) threads, skipping \(skips)")
                    }
                } else {
                    reference = outputs
                }
                let skipped = interpreter.uniformColumnsSkippedMultiplyAccumulates
                if skips, aspect.width > aspect.height {
                    #expect(skipped > 0)
                } else {
                    #expect(skipped == 0)
                }
            }
        }
    }

    /// An input that changes between invocations: the rows known from the last one are forgotten.
    @Test func anInputWithoutBandsAfterOneWithBands() throws {
        let model = try Model(data: try BundledModel.faceDetectorShortRange.load())
        let banded = Self.letterbox(model, width: 16, height: 9, seed: "before")
        let full = Self.letterbox(model, width: 1, height: 1, seed: "after")
        let plain = try Interpreter(model: model, options: .init(threads: 1))
        plain.withInput { _ = $0.update(fromContentsOf: full) }
        try plain.invoke()
        let interpreter = try Interpreter(model: model, options: .init(threads: 1))
        interpreter.withInput { _ = $0.update(fromContentsOf: banded) }
        try interpreter.invoke()
        #expect(interpreter.uniformColumnsSkippedMultiplyAccumulates > 0)
        interpreter.withInput { _ = $0.update(fromContentsOf: full) }
        try interpreter.invoke()
        #expect(interpreter.uniformColumnsSkippedMultiplyAccumulates == 0)
        for index in model.outputs.indices {
            #expect(Self.bitsEqual(interpreter.output(index), plain.output(index)))
        }
    }
}
