import Foundation
import Testing
import VisageNN

/// The kernel tests' cases with the Swift references' outputs, written to a file for the kernel sets
/// this machine cannot run: `Scripts/check-kernels-cross.sh` sets `VISAGE_KERNEL_VECTORS` to a path,
/// runs this test, then builds `Sources/CVisageKernels/crosscheck/vectors.c` for AArch64 (the NEON
/// set, under qemu-aarch64) and for the host, and compares every set it can run with these outputs.
/// Without the variable the test is skipped: the other `*KernelTests` already check the host's sets.
///
/// The cases are the kernel tests' own (every convolution, residual, depthwise, pooling and
/// elementwise case), plus a grid of small 1×1 and 3×3 convolutions over every tile tail of the
/// 6-, 12- and 2-pixel tiles and every channel tail of the 4-, 8- and 16-lane vectors. Tolerances
/// are the tests': exact for pooling and elementwise, a few ulps for logistic, and for the
/// convolutions `2 × accumulation × ε × (the sum of magnitudes)`.
struct KernelVectorExport {
    static let path = ProcessInfo.processInfo.environment["VISAGE_KERNEL_VECTORS"]

    @Test(.enabled(if: path != nil, "VISAGE_KERNEL_VECTORS names the file Scripts/check-kernels-cross.sh reads"))
    func writeReferenceVectors() throws {
        var file = KernelVectorFile()
        var convolutions = ConvolutionKernelTests.cases.map { ($0, Residual.none) }
        for testCase in Self.residualCases {
            for placement in [Residual.separate, .inOutput, .fewerChannels] {
                convolutions.append((ConvolutionKernelTests.Case(shape: testCase.shape, epilogue: .clampAndPrelu), placement))
            }
        }
        convolutions += Self.tailGrid
        for (testCase, residual) in convolutions { file.convolution(testCase, residual: residual) }
        for testCase in DepthwiseConvolutionKernelTests.cases + DepthwiseConvolutionKernelTests.everyChannelCountCases {
            file.depthwise(testCase)
        }
        for shape in PoolingKernelTests.shapes + PoolingKernelTests.everyChannelCountShapes {
            for (min, max) in [(-Float.infinity, Float.infinity), (0, 6), (-1, 1)] {
                file.maxPool(shape, min: min, max: max, nanEvery: nil)
            }
        }
        file.maxPool(channelwiseShape(4, 4, channels: 19, output: (2, 2), kernel: 2, stride: 2), min: -.infinity, max: .infinity, nanEvery: 5)
        file.maxPool(channelwiseShape(5, 7, channels: 13, output: (3, 4), kernel: 2, stride: 2, pad: 1), min: 0, max: 6, nanEvery: 3)
        for count in ElementwiseKernelTests.counts {
            for op in 0..<3 {
                for aliasing in 0..<3 {
                    for (min, max) in [(-Float.infinity, Float.infinity), (0, 6), (-0.25, 0.5)] {
                        file.binary(op: op, aliasing: aliasing, count: count, min: min, max: max)
                    }
                }
            }
            file.clamp(count: count, min: 0, max: 6)
            file.clamp(count: count, min: -.infinity, max: .infinity, nanEvery: 3)
            file.logistic(count: count)
        }
        for channels in [1, 3, 4, 5, 8, 13, 16, 17, 40] {
            for pixels in [0, 1, 5] { file.prelu(channels: channels, pixels: pixels) }
        }
        try file.write(to: URL(fileURLWithPath: Self.path!))
        #expect(file.records > 1_000)
    }

    enum Residual: Int { case none = 0, separate, inOutput, fewerChannels }

    /// The cases `ConvolutionKernelTests.residualMatchesReference` runs with each placement.
    static var residualCases: [ConvolutionKernelTests.Case] {
        [1, 2, 4, 9, 12, 17, 18, 20, 22, 23, 24, 25, 27, 28, 30, 31, 32, 33, 34, 35].map { ConvolutionKernelTests.cases[$0] }
    }

    /// Small convolutions over every tail: output rows of 1 to 13 pixels (the NEON set's 6-pixel tiles,
    /// AVX's 12, portable's 2), output channels around the 4-, 8- and 16-lane vectors and the dot kernel's
    /// ≤ 4-channel panels, input depths below and at a vector; a fused residual of fewer channels on every
    /// third case; 1×1 and 3×3 SAME windows.
    static var tailGrid: [(ConvolutionKernelTests.Case, Residual)] {
        let epilogues: [ConvolutionKernelTests.Epilogue] = [.none, .relu6, .prelu, .clampAndPrelu]
        var cases: [(ConvolutionKernelTests.Case, Residual)] = []
        var index = 0
        for width in [1, 2, 5, 6, 7, 11, 12, 13] {
            for outputs in [1, 3, 4, 5, 8, 9, 12, 15, 16, 17, 33] {
                for inputs in [1, 4, 7, 16] {
                    for kernel in [1, 3] where kernel == 1 || (outputs + inputs + width) % 3 == 0 {
                        let shape = ConvolutionShape(
                            inputHeight: 2, inputWidth: width, inputChannels: inputs, outputHeight: 2, outputWidth: width,
                            outputChannels: outputs, kernelHeight: kernel, kernelWidth: kernel,
                            padTop: kernel / 2, padLeft: kernel / 2)
                        let residual: Residual = index % 3 == 2 ? (outputs > 1 ? .fewerChannels : .separate) : .none
                        cases.append((ConvolutionKernelTests.Case(shape: shape, epilogue: epilogues[index % 4]), residual))
                        index += 1
                    }
                }
            }
        }
        return cases
    }
}

/// What `vectors.c` reads: little-endian 32-bit words. "VKV1", then records, each: kind, the name's
/// byte count and its bytes padded to whole words, a count and that many integers, a count of
/// arrays and each array as its count and that many floats.
struct KernelVectorFile {
    enum Kind: UInt32 { case convolution = 1, depthwise, maxPool, binary, clamp, prelu, logistic }

    private(set) var words: [UInt32] = [0x3156_4B56]  // "VKV1"
    private(set) var records = 0

    mutating func record(_ kind: Kind, _ name: String, ints: [Int], arrays: [[Float]]) {
        words.append(kind.rawValue)
        let bytes = Array(name.utf8)
        words.append(UInt32(bytes.count))
        for start in stride(from: 0, to: bytes.count, by: 4) {
            var word: UInt32 = 0
            for (offset, byte) in bytes[start..<Swift.min(start + 4, bytes.count)].enumerated() {
                word |= UInt32(byte) << (8 * UInt32(offset))
            }
            words.append(word)
        }
        words.append(UInt32(ints.count))
        words += ints.map { UInt32(truncatingIfNeeded: $0) }
        words.append(UInt32(arrays.count))
        for array in arrays {
            words.append(UInt32(array.count))
            words += array.map(\.bitPattern)
        }
        records += 1
    }

    func write(to url: URL) throws {
        try words.map(\.littleEndian).withUnsafeBytes { try Data($0).write(to: url) }
    }

    private static func geometry(_ s: ConvolutionShape) -> [Int] {
        [s.inputHeight, s.inputWidth, s.inputChannels, s.outputHeight, s.outputWidth, s.outputChannels,
         s.kernelHeight, s.kernelWidth, s.strideY, s.strideX, s.padTop, s.padLeft]
    }

    /// ints: geometry (12), residual channels (0: none), residual in the output (0/1); arrays: input,
    /// OHWI weights, bias, slopes (empty: none), residual, [min, max], expected, tolerance.
    mutating func convolution(_ testCase: ConvolutionKernelTests.Case, residual placement: KernelVectorExport.Residual) {
        let shape = testCase.shape
        let name = "conv \(testCase.testDescription) residual \(placement)"
        var random = SplitMix64(seed: fixedSeed(name))
        let input = random.floats(shape.inputHeight * shape.inputWidth * shape.inputChannels)
        let weights = random.floats(shape.outputChannels * shape.kernelHeight * shape.kernelWidth * shape.inputChannels)
        let bias = random.floats(shape.outputChannels)
        let epilogue = makeEpilogue(testCase.epilogue, channels: shape.outputChannels, random: &random)
        let pixels = shape.outputHeight * shape.outputWidth
        let residualChannels = switch placement {
        case .none: 0
        case .fewerChannels: (shape.outputChannels + 1) / 2
        case .separate, .inOutput: shape.outputChannels
        }
        let residual = random.floats(pixels * residualChannels, in: -2...2)

        func reference(_ input: [Float], _ weights: [Float], _ bias: [Float], _ residual: [Float], _ epilogue: ConvolutionEpilogue) -> [Float] {
            var output = [Float](repeating: .nan, count: pixels * shape.outputChannels)
            weights.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in
                    residual.withUnsafeBufferPointer { r in
                        ReferenceKernels.convolution(
                            shape: shape, input: input, weightsOHWI: w, bias: b, epilogue: epilogue,
                            residual: residualChannels == 0 ? nil : r.baseAddress, residualChannels: residualChannels == 0 ? nil : residualChannels,
                            output: &output, outputRows: 0..<shape.outputHeight)
                    }
                }
            }
            return output
        }
        let expected = reference(input, weights, bias, residual, epilogue)
        let magnitudes = reference(input.map(abs), weights.map(abs), bias.map(abs), residual.map(abs), ConvolutionEpilogue())
        let accumulation = Float(shape.kernelHeight * shape.kernelWidth * shape.inputChannels + 2)
        record(
            .convolution, name, ints: Self.geometry(shape) + [residualChannels, placement == .inOutput ? 1 : 0],
            arrays: [input, weights, bias, epilogue.preluSlopes ?? [], residual, [epilogue.min, epilogue.max], expected,
                     magnitudes.map { 2 * accumulation * Float.ulpOfOne * $0 }])
    }

    /// ints: geometry; arrays: input, HWC weights, bias, slopes, [min, max], expected, tolerance.
    mutating func depthwise(_ testCase: DepthwiseConvolutionKernelTests.Case) {
        let shape = testCase.shape
        let name = "dwconv \(testCase.testDescription)"
        var random = SplitMix64(seed: fixedSeed(name))
        let input = random.floats(shape.inputHeight * shape.inputWidth * shape.inputChannels)
        let weights = random.floats(shape.kernelHeight * shape.kernelWidth * shape.outputChannels)
        let bias = random.floats(shape.outputChannels)
        let epilogue = makeEpilogue(testCase.epilogue, channels: shape.outputChannels, random: &random)
        func reference(_ input: [Float], _ weights: [Float], _ bias: [Float], _ epilogue: ConvolutionEpilogue) -> [Float] {
            var output = [Float](repeating: .nan, count: shape.outputHeight * shape.outputWidth * shape.outputChannels)
            weights.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in
                    ReferenceKernels.depthwiseConvolution(
                        shape: shape, input: input, weightsHWC: w, bias: b, epilogue: epilogue, output: &output,
                        outputRows: 0..<shape.outputHeight)
                }
            }
            return output
        }
        let expected = reference(input, weights, bias, epilogue)
        let magnitudes = reference(input.map(abs), weights.map(abs), bias.map(abs), ConvolutionEpilogue())
        let accumulation = Float(shape.kernelHeight * shape.kernelWidth + 1)
        record(
            .depthwise, name, ints: Self.geometry(shape),
            arrays: [input, weights, bias, epilogue.preluSlopes ?? [], [epilogue.min, epilogue.max], expected,
                     magnitudes.map { 2 * accumulation * Float.ulpOfOne * $0 }])
    }

    /// ints: geometry; arrays: input, [min, max], expected (exact).
    mutating func maxPool(_ shape: ConvolutionShape, min: Float, max: Float, nanEvery: Int?) {
        let name = "maxpool \(Self.geometry(shape)) clamp \(min)...\(max) nan \(nanEvery ?? 0)"
        var random = SplitMix64(seed: fixedSeed(name))
        var input = random.floats(shape.inputHeight * shape.inputWidth * shape.inputChannels, in: -4...4)
        if let nanEvery { for index in stride(from: 0, to: input.count, by: nanEvery) { input[index] = .nan } }
        var expected = [Float](repeating: .nan, count: shape.outputHeight * shape.outputWidth * shape.outputChannels)
        ReferenceKernels.maxPool(shape: shape, input: input, output: &expected, outputRows: 0..<shape.outputHeight, min: min, max: max)
        record(.maxPool, name, ints: Self.geometry(shape), arrays: [input, [min, max], expected])
    }

    /// ints: operation (0 add, 1 subtract, 2 multiply), aliasing (0 separate, 1 output is a, 2 output is b);
    /// arrays: a, b, [min, max], expected (exact).
    mutating func binary(op: Int, aliasing: Int, count: Int, min: Float, max: Float) {
        let name = "binary \(op) aliasing \(aliasing) count \(count) clamp \(min)...\(max)"
        var random = SplitMix64(seed: fixedSeed(name))
        var a = random.floats(count, in: -2...2)
        let b = random.floats(count, in: -2...2)
        if count > 2 { a[count / 2] = .nan }
        var expected = [Float](repeating: .nan, count: count)
        switch op {
        case 0: ReferenceKernels.add(a, b, &expected, count: count, min: min, max: max)
        case 1: ReferenceKernels.subtract(a, b, &expected, count: count, min: min, max: max)
        default: ReferenceKernels.multiply(a, b, &expected, count: count, min: min, max: max)
        }
        record(.binary, name, ints: [op, aliasing], arrays: [a, b, [min, max], expected])
    }

    /// arrays: x, [min, max], expected (exact, in place).
    mutating func clamp(count: Int, min: Float, max: Float, nanEvery: Int? = nil) {
        let name = "clamp count \(count) clamp \(min)...\(max) nan \(nanEvery ?? 0)"
        var random = SplitMix64(seed: fixedSeed(name))
        var x = random.floats(count, in: -8...8)
        if let nanEvery { for index in stride(from: 0, to: count, by: nanEvery) { x[index] = .nan } }
        var expected = [Float](repeating: .nan, count: count)
        ReferenceKernels.clamp(x, &expected, count: count, min: min, max: max)
        record(.clamp, name, ints: [], arrays: [x, [min, max], expected])
    }

    /// ints: channels; arrays: x, slopes, expected (exact).
    mutating func prelu(channels: Int, pixels: Int) {
        let name = "prelu \(channels) × \(pixels)"
        var random = SplitMix64(seed: fixedSeed(name))
        let count = channels * pixels
        let x = random.floats(count), slopes = random.floats(channels)
        var expected = [Float](repeating: .nan, count: count)
        ReferenceKernels.prelu(x, slopes: slopes, channels: channels, &expected, count: count)
        record(.prelu, name, ints: [channels], arrays: [x, slopes, expected])
    }

    /// arrays: x, expected, tolerance (4 ulps: exp differs between libraries in the last bits).
    mutating func logistic(count: Int) {
        let name = "logistic \(count)"
        var random = SplitMix64(seed: fixedSeed(name))
        let x = random.floats(count, in: -20...20)
        var expected = [Float](repeating: .nan, count: count)
        ReferenceKernels.logistic(x, &expected, count: count)
        record(.logistic, name, ints: [], arrays: [x, expected, expected.map { 4 * $0.ulp }])
    }
}
