import CVisageKernels

/// A micro-benchmark of the kernels on layers shaped like the bundled models' hot spots.
///
/// Meaningful only in release builds (debug builds compile the C kernels at -O0). The CLI's
/// `visage kernel-benchmark` prints it; `visage benchmark` may call `run` too.
package enum KernelBenchmark {
    /// One layer to time.
    package struct Layer: Sendable {
        package enum Kind: String, Sendable { case convolution, depthwise, maxPool, add }
        package var name: String
        package var kind: Kind
        package var shape: ConvolutionShape
        package var epilogue: ConvolutionEpilogue

        package init(name: String, kind: Kind, shape: ConvolutionShape, epilogue: ConvolutionEpilogue = .init()) {
            self.name = name
            self.kind = kind
            self.shape = shape
            self.epilogue = epilogue
        }

        /// Multiply-accumulates per run (for `maxPool`: one comparison per tap; for `add`: one
        /// per output value).
        package var operations: Int {
            switch kind {
            case .convolution: shape.multiplyAccumulates
            case .depthwise, .maxPool:
                shape.outputHeight * shape.outputWidth * shape.outputChannels * shape.kernelHeight * shape.kernelWidth
            case .add: shape.outputHeight * shape.outputWidth * shape.outputChannels
            }
        }
    }

    /// A timed layer.
    package struct Result: Sendable {
        package var layer: Layer
        package var isa: KernelISA
        /// Median seconds per run.
        package var median: Double
        /// Fastest run, in seconds: on a shared, noisy machine the closest to what the kernel can do.
        package var best: Double
        /// Giga operations (multiply-accumulates, or adds) per second at the median.
        package var gigaOperationsPerSecond: Double { Double(layer.operations) / median / 1e9 }
        /// Giga operations per second in the fastest run.
        package var bestGigaOperationsPerSecond: Double { Double(layer.operations) / best / 1e9 }
    }

    private static func pointwise(_ size: Int, _ input: Int, _ output: Int) -> ConvolutionShape {
        ConvolutionShape(
            inputHeight: size, inputWidth: size, inputChannels: input,
            outputHeight: size, outputWidth: size, outputChannels: output, kernelHeight: 1, kernelWidth: 1)
    }

    private static func spatial(_ size: Int, _ channels: Int, _ output: Int, kernel: Int, stride: Int, pad: Int) -> ConvolutionShape {
        ConvolutionShape(
            inputHeight: size, inputWidth: size, inputChannels: channels,
            outputHeight: size / stride, outputWidth: size / stride, outputChannels: output,
            kernelHeight: kernel, kernelWidth: kernel, strideY: stride, strideX: stride, padTop: pad, padLeft: pad)
    }

    /// The heaviest layer shapes of mesh v2 and the two detectors (from the bundled models), with
    /// the fused activations they carry.
    package static let representativeLayers: [Layer] = {
        let prelu = { (channels: Int) in ConvolutionEpilogue(preluSlopes: Array(repeating: 0.25, count: channels)) }
        let relu = ConvolutionEpilogue(min: 0)
        return [
            Layer(name: "mesh 1×1 64×64×16→32", kind: .convolution, shape: pointwise(64, 16, 32), epilogue: prelu(32)),
            Layer(name: "mesh 1×1 16×16×64→128", kind: .convolution, shape: pointwise(16, 64, 128), epilogue: prelu(128)),
            Layer(name: "mesh 1×1 128×128×16→8", kind: .convolution, shape: pointwise(128, 16, 8), epilogue: prelu(8)),
            Layer(name: "mesh 1×1 128×128×8→16", kind: .convolution, shape: pointwise(128, 8, 16), epilogue: .init()),
            Layer(name: "mesh 3×3/2 256×256×3→16", kind: .convolution, shape: spatial(256, 3, 16, kernel: 3, stride: 2, pad: 0), epilogue: prelu(16)),
            Layer(name: "mesh 2×2/2 128×128×16→16", kind: .convolution, shape: spatial(128, 16, 16, kernel: 2, stride: 2, pad: 0), epilogue: .init()),
            Layer(
                name: "mesh head 2×2 2×2×128→1434", kind: .convolution,
                shape: ConvolutionShape(
                    inputHeight: 2, inputWidth: 2, inputChannels: 128, outputHeight: 1, outputWidth: 1, outputChannels: 1434,
                    kernelHeight: 2, kernelWidth: 2)),
            Layer(name: "mesh dw 3×3 128×128×8", kind: .depthwise, shape: spatial(128, 8, 8, kernel: 3, stride: 1, pad: 1), epilogue: .init()),
            Layer(name: "mesh dw 3×3 64×64×16", kind: .depthwise, shape: spatial(64, 16, 16, kernel: 3, stride: 1, pad: 1), epilogue: .init()),
            Layer(name: "short 5×5/2 128×128×3→24", kind: .convolution, shape: spatial(128, 3, 24, kernel: 5, stride: 2, pad: 1), epilogue: relu),
            Layer(name: "full 3×3/2 192×192×3→32", kind: .convolution, shape: spatial(192, 3, 32, kernel: 3, stride: 2, pad: 0), epilogue: relu),
            Layer(name: "full 1×1 96×96×8→32", kind: .convolution, shape: pointwise(96, 8, 32), epilogue: relu),
            Layer(name: "short 1×1 64×64×24→28", kind: .convolution, shape: pointwise(64, 24, 28), epilogue: .init()),
            Layer(name: "short 1×1 8×8×96→96", kind: .convolution, shape: pointwise(8, 96, 96), epilogue: .init()),
            Layer(name: "short dw 3×3 64×64×24", kind: .depthwise, shape: spatial(64, 24, 24, kernel: 3, stride: 1, pad: 1), epilogue: .init()),
            Layer(name: "1×1 32×32×96→96 (REFERENCE §3)", kind: .convolution, shape: pointwise(32, 96, 96), epilogue: relu),
            Layer(name: "short maxpool 2×2/2 64×64×24", kind: .maxPool, shape: spatial(64, 24, 24, kernel: 2, stride: 2, pad: 0), epilogue: .init()),
            Layer(name: "full dw 3×3 96×96×32", kind: .depthwise, shape: spatial(96, 32, 32, kernel: 3, stride: 1, pad: 1), epilogue: .init()),
            Layer(name: "full dw 3×3/2 96×96×32", kind: .depthwise, shape: spatial(96, 32, 32, kernel: 3, stride: 2, pad: 0), epilogue: .init()),
            Layer(name: "full dw 3×3 48×48×12", kind: .depthwise, shape: spatial(48, 12, 12, kernel: 3, stride: 1, pad: 1), epilogue: .init()),
            Layer(name: "mesh maxpool 2×2/2 128×128×16", kind: .maxPool, shape: spatial(128, 16, 16, kernel: 2, stride: 2, pad: 0), epilogue: .init()),
            Layer(name: "add+relu 64×64×32", kind: .add, shape: pointwise(64, 32, 32), epilogue: relu),
            Layer(name: "full 1×1 48×48×48→1", kind: .convolution, shape: pointwise(48, 48, 1), epilogue: .init()),
            Layer(
                name: "blendshapes 1×1 1×64×384→97", kind: .convolution,
                shape: ConvolutionShape(
                    inputHeight: 1, inputWidth: 64, inputChannels: 384, outputHeight: 1, outputWidth: 64, outputChannels: 97,
                    kernelHeight: 1, kernelWidth: 1)),
        ]
    }()

    /// This core's peak multiply-accumulate rate with `isa`'s widest vectors, in GMAC/s: twelve
    /// independent FMA chains (as many as the tiles keep in flight), `steps` rounds of them timed
    /// `rounds` times, the fastest kept. Nil for a set without a peak loop (portable, NEON).
    package static func peakGigaOperationsPerSecond(isa: KernelISA = .selected, steps: Int = 200_000, rounds: Int = 20) -> Double? {
        precondition(steps > 0 && rounds > 0)
        guard visage_f32_fma_peak(isa.cValue, 1) > 0 else { return nil }
        let clock = ContinuousClock()
        var best = Double.infinity, operations = 0
        for _ in 0 ..< rounds {
            let elapsed = clock.measure { operations = visage_f32_fma_peak(isa.cValue, steps) }
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return Double(operations) / best / 1e9
    }

    /// Times each layer with `isa`: `runs` timed runs after one warm-up, median and best reported.
    package static func run(layers: [Layer] = representativeLayers, isa: KernelISA = .selected, runs: Int = 50) -> [Result] {
        precondition(runs > 0)
        return layers.map { layer in
            let s = layer.shape
            var random = LinearCongruentialGenerator(seed: 1)
            let input = (0..<(s.inputHeight * s.inputWidth * s.inputChannels)).map { _ in random.nextUnit() }
            var output = [Float](repeating: 0, count: s.outputHeight * s.outputWidth * s.outputChannels)
            let body: (UnsafeMutablePointer<Float>) -> Void
            switch layer.kind {
            case .convolution:
                let weights = (0..<(s.outputChannels * s.kernelHeight * s.kernelWidth * s.inputChannels)).map { _ in random.nextUnit() }
                let packed = weights.withUnsafeBufferPointer {
                    PackedConvolution(shape: s, weightsOHWI: $0, bias: nil, epilogue: layer.epilogue, isa: isa)
                }
                body = { packed.run(input: input, output: $0, outputRows: 0..<s.outputHeight) }
            case .depthwise:
                let weights = (0..<(s.kernelHeight * s.kernelWidth * s.outputChannels)).map { _ in random.nextUnit() }
                let packed = weights.withUnsafeBufferPointer {
                    PackedDepthwiseConvolution(shape: s, weightsHWC: $0, bias: nil, epilogue: layer.epilogue, isa: isa)
                }
                body = { packed.run(input: input, output: $0, outputRows: 0..<s.outputHeight) }
            case .maxPool:
                body = {
                    Pooling.maxPool(
                        shape: s, input: input, output: $0, outputRows: 0..<s.outputHeight,
                        min: layer.epilogue.min, max: layer.epilogue.max, isa: isa)
                }
            case .add:
                let other = input.map { -$0 * 0.5 }
                body = { Elementwise.add(input, other, $0, count: input.count, min: layer.epilogue.min, max: layer.epilogue.max, isa: isa) }
            }
            let clock = ContinuousClock()
            var seconds: [Double] = []
            output.withUnsafeMutableBufferPointer { out in
                body(out.baseAddress!)
                for _ in 0..<runs {
                    let elapsed = clock.measure { body(out.baseAddress!) }
                    seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
                }
            }
            seconds.sort()
            return Result(layer: layer, isa: isa, median: seconds[seconds.count / 2], best: seconds[0])
        }
    }
}

/// Deterministic benchmark data without Foundation's generator.
private struct LinearCongruentialGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    /// A value in [-1, 1).
    mutating func nextUnit() -> Float {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(state >> 40) / Float(1 << 23) - 1
    }
}
