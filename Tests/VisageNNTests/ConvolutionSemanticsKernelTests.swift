import Testing
import VisageNN

/// What padding and stride mean, checked without the reference loops: a kernel whose only
/// non-zero weight is 1 at tap (ky, kx) copies the input pixel that tap reads, or zero where
/// the tap falls in the padding. Run through the references and every kernel set.
struct ConvolutionSemanticsKernelTests {
    static let shape = ConvolutionShape(
        inputHeight: 5, inputWidth: 6, inputChannels: 3, outputHeight: 4, outputWidth: 4, outputChannels: 3,
        kernelHeight: 3, kernelWidth: 3, strideY: 2, strideX: 2, padTop: 1, padLeft: 2)
    static let taps = [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)].map { Tap(y: $0.0, x: $0.1) }

    struct Tap: Sendable, CustomTestStringConvertible {
        var y: Int, x: Int
        var testDescription: String { "tap \(y),\(x)" }
    }

    /// Input pixel (iy, ix) channel c holds a distinct value; the tap's pixel or zero.
    static func expected(_ tap: Tap) -> (input: [Float], output: [Float]) {
        let s = shape
        let input = (0..<(s.inputHeight * s.inputWidth * s.inputChannels)).map { Float($0 + 1) }
        var output: [Float] = []
        for oy in 0..<s.outputHeight {
            for ox in 0..<s.outputWidth {
                let iy = oy * s.strideY - s.padTop + tap.y, ix = ox * s.strideX - s.padLeft + tap.x
                let inside = (0..<s.inputHeight).contains(iy) && (0..<s.inputWidth).contains(ix)
                for c in 0..<s.outputChannels {
                    output.append(inside ? input[(iy * s.inputWidth + ix) * s.inputChannels + c] : 0)
                }
            }
        }
        return (input, output)
    }

    @Test(arguments: taps)
    func convolutionTapCopiesItsPixel(_ tap: Tap) {
        let s = Self.shape
        let (input, expected) = Self.expected(tap)
        // Output channel o takes input channel o at the tap: OHWI weights.
        var weights = [Float](repeating: 0, count: s.outputChannels * 9 * s.inputChannels)
        for o in 0..<s.outputChannels { weights[((o * 3 + tap.y) * 3 + tap.x) * s.inputChannels + o] = 1 }
        var reference = [Float](repeating: .nan, count: expected.count)
        weights.withUnsafeBufferPointer {
            ReferenceKernels.convolution(
                shape: s, input: input, weightsOHWI: $0, bias: nil, epilogue: .init(), output: &reference,
                outputRows: 0..<s.outputHeight)
        }
        #expect(reference == expected)
        for isa in KernelISA.available {
            let packed = weights.withUnsafeBufferPointer {
                PackedConvolution(shape: s, weightsOHWI: $0, bias: nil, epilogue: .init(), isa: isa)
            }
            var output = [Float](repeating: .nan, count: expected.count)
            packed.run(input: input, output: &output, outputRows: 0..<s.outputHeight)
            #expect(output == expected, "\(isa)")
        }
    }

    @Test(arguments: taps)
    func depthwiseTapCopiesItsPixel(_ tap: Tap) {
        let s = Self.shape
        let (input, expected) = Self.expected(tap)
        var weights = [Float](repeating: 0, count: 9 * s.outputChannels)
        for c in 0..<s.outputChannels { weights[(tap.y * 3 + tap.x) * s.outputChannels + c] = 1 }
        var reference = [Float](repeating: .nan, count: expected.count)
        weights.withUnsafeBufferPointer {
            ReferenceKernels.depthwiseConvolution(
                shape: s, input: input, weightsHWC: $0, bias: nil, epilogue: .init(), output: &reference,
                outputRows: 0..<s.outputHeight)
        }
        #expect(reference == expected)
        for isa in KernelISA.available {
            let packed = weights.withUnsafeBufferPointer {
                PackedDepthwiseConvolution(shape: s, weightsHWC: $0, bias: nil, epilogue: .init(), isa: isa)
            }
            var output = [Float](repeating: .nan, count: expected.count)
            packed.run(input: input, output: &output, outputRows: 0..<s.outputHeight)
            #expect(output == expected, "\(isa)")
        }
    }
}
