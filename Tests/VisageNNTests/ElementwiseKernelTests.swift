import Testing
import VisageNN

/// `Elementwise` against `ReferenceKernels` for every available kernel set. Add, subtract,
/// multiply, clamp and PReLU round once per value, so the kernels must agree exactly.
struct ElementwiseKernelTests {
    /// Below, at and above the 8-lane vector and the 16-value unroll.
    static let counts = [0, 1, 7, 8, 9, 15, 16, 17, 33, 127]

    enum Binary: String, CaseIterable, Sendable { case add, subtract, multiply }
    enum Aliasing: String, CaseIterable, Sendable { case separate, outputIsA, outputIsB }

    typealias BinaryKernel = (UnsafePointer<Float>, UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int, Float, Float) -> Void

    static func kernels(_ op: Binary, isa: KernelISA) -> (fast: BinaryKernel, reference: BinaryKernel) {
        switch op {
        case .add:
            ({ Elementwise.add($0, $1, $2, count: $3, min: $4, max: $5, isa: isa) },
             { ReferenceKernels.add($0, $1, $2, count: $3, min: $4, max: $5) })
        case .subtract:
            ({ Elementwise.subtract($0, $1, $2, count: $3, min: $4, max: $5, isa: isa) },
             { ReferenceKernels.subtract($0, $1, $2, count: $3, min: $4, max: $5) })
        case .multiply:
            ({ Elementwise.multiply($0, $1, $2, count: $3, min: $4, max: $5, isa: isa) },
             { ReferenceKernels.multiply($0, $1, $2, count: $3, min: $4, max: $5) })
        }
    }

    @Test(arguments: Binary.allCases, Aliasing.allCases)
    func binaryMatchesReference(_ op: Binary, aliasing: Aliasing) {
        for isa in KernelISA.available {
            for count in Self.counts {
                for (min, max) in [(-Float.infinity, Float.infinity), (0, 6), (-0.25, 0.5)] {
                    var random = SplitMix64(seed: fixedSeed("\(op) \(count)"))
                    let a = random.floats(count, in: -2...2), b = random.floats(count, in: -2...2)
                    var expected = [Float](repeating: .nan, count: count)
                    let (fast, reference) = Self.kernels(op, isa: isa)
                    reference(a, b, &expected, count, min, max)

                    var output: [Float]
                    switch aliasing {
                    case .separate:
                        output = [Float](repeating: .nan, count: count)
                        fast(a, b, &output, count, min, max)
                    case .outputIsA:
                        output = a
                        output.withUnsafeMutableBufferPointer { fast($0.baseAddress!, b, $0.baseAddress!, count, min, max) }
                    case .outputIsB:
                        output = b
                        output.withUnsafeMutableBufferPointer { fast(a, $0.baseAddress!, $0.baseAddress!, count, min, max) }
                    }
                    #expect(output == expected, "\(isa) \(op) count \(count) clamp \(min)...\(max)")
                }
            }
        }
    }

    @Test(arguments: KernelISA.available)
    func clampMatchesReference(isa: KernelISA) {
        for count in Self.counts {
            var random = SplitMix64(seed: fixedSeed("clamp \(count)"))
            let x = random.floats(count, in: -8...8)
            var expected = [Float](repeating: .nan, count: count)
            ReferenceKernels.clamp(x, &expected, count: count, min: 0, max: 6)
            var output = x
            output.withUnsafeMutableBufferPointer {
                Elementwise.clamp($0.baseAddress!, $0.baseAddress!, count: count, min: 0, max: 6, isa: isa)
            }
            #expect(output == expected, "\(isa) count \(count)")
        }
    }

    /// A NaN stays NaN through every clamp, as in TFLite (`std::min(std::max(x, lo), hi)`) and the
    /// reference: a set must not turn it into a bound, or the same model would answer differently per CPU.
    @Test(arguments: KernelISA.available)
    func nanPassesThroughClamps(isa: KernelISA) {
        let count = 37
        var random = SplitMix64(seed: fixedSeed("nan \(count)"))
        var a = random.floats(count, in: -2...2)
        for index in stride(from: 0, to: count, by: 3) { a[index] = .nan }
        let b = random.floats(count, in: -2...2)
        func same(_ x: [Float], _ y: [Float]) -> Bool { zip(x, y).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) } }
        for (min, max) in [(-Float.infinity, Float.infinity), (0, 6)] {
            for op in Binary.allCases {
                let (fast, reference) = Self.kernels(op, isa: isa)
                var expected = [Float](repeating: 0, count: count), output = expected
                reference(a, b, &expected, count, min, max)
                fast(a, b, &output, count, min, max)
                #expect(expected[0].isNaN && same(output, expected), "\(isa) \(op) clamp \(min)...\(max)")
            }
            var expected = [Float](repeating: 0, count: count), output = expected
            ReferenceKernels.clamp(a, &expected, count: count, min: min, max: max)
            Elementwise.clamp(a, &output, count: count, min: min, max: max, isa: isa)
            #expect(expected[0].isNaN && same(output, expected), "\(isa) clamp \(min)...\(max)")
        }
        // The convolutions' fused clamp: a 1×1 convolution copying its input, and a 1×1 depthwise one.
        let shape = channelwiseShape(1, 37, channels: 1, output: (1, 37), kernel: 1)
        let one: [Float] = [1]
        for epilogue in [ConvolutionEpilogue(), ConvolutionEpilogue(min: 0, max: 6)] {
            let convolution = one.withUnsafeBufferPointer {
                PackedConvolution(shape: shape, weightsOHWI: $0, bias: nil, epilogue: epilogue, isa: isa)
            }
            let depthwise = one.withUnsafeBufferPointer {
                PackedDepthwiseConvolution(shape: shape, weightsHWC: $0, bias: nil, epilogue: epilogue, isa: isa)
            }
            var expected = [Float](repeating: 0, count: count), output = expected
            ReferenceKernels.clamp(a, &expected, count: count, min: epilogue.min, max: epilogue.max)
            convolution.run(input: a, output: &output, outputRows: 0..<1)
            #expect(same(output, expected), "\(isa) convolution \(epilogue.min)...\(epilogue.max)")
            depthwise.run(input: a, output: &output, outputRows: 0..<1)
            #expect(same(output, expected), "\(isa) depthwise \(epilogue.min)...\(epilogue.max)")
        }
    }

    @Test(arguments: KernelISA.available, [1, 3, 8, 13, 16, 17, 40])
    func preluMatchesReference(isa: KernelISA, channels: Int) {
        for pixels in [0, 1, 5] {
            var random = SplitMix64(seed: fixedSeed("prelu \(channels) \(pixels)"))
            let count = channels * pixels
            let x = random.floats(count), slopes = random.floats(channels)
            var expected = [Float](repeating: .nan, count: count)
            ReferenceKernels.prelu(x, slopes: slopes, channels: channels, &expected, count: count)
            var separate = [Float](repeating: .nan, count: count)
            Elementwise.prelu(x, slopes: slopes, channels: channels, &separate, count: count, isa: isa)
            var inPlace = x
            inPlace.withUnsafeMutableBufferPointer {
                Elementwise.prelu($0.baseAddress!, slopes: slopes, channels: channels, $0.baseAddress!, count: count, isa: isa)
            }
            #expect(separate == expected, "\(isa) \(pixels) pixels")
            #expect(inPlace == expected, "\(isa) \(pixels) pixels in place")
        }
    }

    @Test(arguments: KernelISA.available)
    func logisticMatchesReference(isa: KernelISA) {
        for count in Self.counts {
            var random = SplitMix64(seed: fixedSeed("logistic \(count)"))
            let x = random.floats(count, in: -20...20)
            var expected = [Float](repeating: .nan, count: count)
            ReferenceKernels.logistic(x, &expected, count: count)
            var output = x
            output.withUnsafeMutableBufferPointer {
                Elementwise.logistic($0.baseAddress!, $0.baseAddress!, count: count, isa: isa)
            }
            // Different exp implementations may differ in the last bits: a few ulps.
            let problems = mismatches(output, expected) { 4 * expected[$0].ulp }
            #expect(problems.isEmpty, "\(isa) count \(count): \(problems)")
        }
    }
}
