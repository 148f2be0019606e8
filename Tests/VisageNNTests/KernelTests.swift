import Testing
import VisageNN

/// Kernel-set selection, and the helpers the other `*KernelTests` files share.
struct KernelTests {
    @Test func portableIsAlwaysAvailable() {
        #expect(KernelISA.portable.isAvailable)
        #expect(KernelISA.available.first == .portable)
    }

    @Test func selectionPrefersTheBestAvailableSet() {
        let best = KernelISA.available.last!
        #expect(KernelISA.select(request: nil) == best)
        #expect(KernelISA.select(request: "no-such-set") == best)
        #expect(KernelISA.available.contains(KernelISA.selected))
    }

    @Test(arguments: KernelISA.available)
    func environmentValueForcesAnAvailableSet(isa: KernelISA) {
        #expect(KernelISA.select(request: isa.rawValue) == isa)
    }

    /// `visage kernel-benchmark`'s peak: a positive rate for the x86 sets, none for the sets
    /// without a peak loop.
    @Test(arguments: KernelISA.available)
    func peakIsTimedForTheVectorSets(isa: KernelISA) {
        let peak = KernelBenchmark.peakGigaOperationsPerSecond(isa: isa, steps: 1_000, rounds: 2)
        switch isa {
        case .avx2FMA, .avx512: #expect(peak.map { $0 > 0 && $0.isFinite } == true)
        case .portable, .neon: #expect(peak == nil)
        }
    }

    @Test func unavailableSetIsNotSelected() {
        for isa in KernelISA.allCases where !isa.isAvailable {
            #expect(KernelISA.select(request: isa.rawValue) != isa)
        }
    }
}


extension SplitMix64 {
    mutating func floats(_ count: Int, in range: ClosedRange<Float> = -1...1) -> [Float] {
        (0..<count).map { _ in Float.random(in: range, using: &self) }
    }
}

/// A seed fixed by a test case's name (FNV-1a), unlike `hashValue`, which changes per process.
func fixedSeed(_ name: String) -> UInt64 {
    name.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
}

/// Where `actual` and `expected` differ by more than `tolerance[i]`, as readable lines.
func mismatches(_ actual: [Float], _ expected: [Float], tolerance: (Int) -> Float) -> [String] {
    var lines: [String] = []
    for i in expected.indices where !(abs(actual[i] - expected[i]) <= tolerance(i)) {
        lines.append("[\(i)] \(actual[i]) vs \(expected[i]) (tolerance \(tolerance(i)))")
        if lines.count == 5 { break }
    }
    return lines
}

/// A square window over `channels` channels in and out (depthwise convolution, pooling): the same
/// kernel size, stride and padding along both axes.
func channelwiseShape(
    _ height: Int, _ width: Int, channels: Int, output: (Int, Int), kernel: Int = 3, stride: Int = 1, pad: Int = 0
) -> ConvolutionShape {
    ConvolutionShape(
        inputHeight: height, inputWidth: width, inputChannels: channels,
        outputHeight: output.0, outputWidth: output.1, outputChannels: channels,
        kernelHeight: kernel, kernelWidth: kernel, strideY: stride, strideX: stride, padTop: pad, padLeft: pad)
}
