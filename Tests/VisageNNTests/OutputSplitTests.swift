import Testing
import VisageNN

/// ``OutputSplit``'s rule on the layer shapes of the bundled networks.
struct OutputSplitTests {
    @Test func smallOperatorsStayOnOneThread() {
        // mesh's 4×4×64→128 1×1 layer: 131,072 multiply-accumulates, under two parts' minimum.
        let layer = ConvolutionShape(inputHeight: 4, inputWidth: 4, inputChannels: 64, outputHeight: 4, outputWidth: 4, outputChannels: 128, kernelHeight: 1, kernelWidth: 1)
        #expect(OutputSplit(rows: 4, panels: 8, work: layer.splitWork, weightsOutweighActivations: layer.weightsOutweighActivations, threads: 2).parts == 1)
        #expect(OutputSplit(rows: 64, panels: 1, work: OutputSplit.minimumWorkPerPart * 2 - 1, threads: 8).parts == 1)
        #expect(OutputSplit(rows: 64, panels: 1, work: OutputSplit.minimumWorkPerPart * 2, threads: 8).parts == 2)
    }

    @Test func largeActivationsSplitByRows() {
        // mesh's 128×128×8→16 1×1 layer.
        let layer = ConvolutionShape(inputHeight: 128, inputWidth: 128, inputChannels: 8, outputHeight: 128, outputWidth: 128, outputChannels: 16, kernelHeight: 1, kernelWidth: 1)
        #expect(!layer.weightsOutweighActivations)
        let split = OutputSplit(rows: 128, panels: 1, work: layer.splitWork, weightsOutweighActivations: layer.weightsOutweighActivations, threads: 4)
        #expect(split.axis == .rows && split.parts == 4)
        #expect((0 ..< 4).map { split.range($0, of: 128) } == [0..<32, 32..<64, 64..<96, 96..<128])
    }

    @Test func heavyWeightsAndSingleRowsSplitByChannels() {
        // full range's 6×6×96→384 layer: 36,864 weights against 17,280 activations.
        let layer = ConvolutionShape(inputHeight: 6, inputWidth: 6, inputChannels: 96, outputHeight: 6, outputWidth: 6, outputChannels: 384, kernelHeight: 1, kernelWidth: 1)
        #expect(layer.weightsOutweighActivations)
        let split = OutputSplit(rows: 6, panels: 24, work: layer.splitWork, weightsOutweighActivations: true, threads: 2)
        #expect(split.axis == .channels && split.parts == 2)
        #expect(split.range(0, of: 24) == 0..<12 && split.range(1, of: 24) == 12..<24)
        // The blendshape network's 1×97×64→256 layer has more activations than weights, but one row.
        let row = ConvolutionShape(inputHeight: 1, inputWidth: 97, inputChannels: 64, outputHeight: 1, outputWidth: 97, outputChannels: 256, kernelHeight: 1, kernelWidth: 1)
        #expect(!row.weightsOutweighActivations)
        let single = OutputSplit(rows: 1, panels: 16, work: row.splitWork, weightsOutweighActivations: row.weightsOutweighActivations, threads: 2)
        #expect(single.axis == .channels && single.parts == 2)
        // Neither rows nor panels to share: one thread.
        #expect(OutputSplit(rows: 1, panels: 1, work: 10_000_000, threads: 2).parts == 1)
    }

    @Test func narrowPanelsCountTheWorkTheKernelsDo() {
        // full range's 48×48×48→1 head: 110,592 useful multiply-accumulates, computed 8 channels wide.
        let layer = ConvolutionShape(inputHeight: 48, inputWidth: 48, inputChannels: 48, outputHeight: 48, outputWidth: 48, outputChannels: 1, kernelHeight: 1, kernelWidth: 1)
        #expect(layer.splitWork == 8 * layer.multiplyAccumulates)
        #expect(OutputSplit(rows: 48, panels: 1, work: layer.splitWork, threads: 2).parts == 2)
        let wide = ConvolutionShape(inputHeight: 1, inputWidth: 1, inputChannels: 10, outputHeight: 1, outputWidth: 1, outputChannels: 41, kernelHeight: 1, kernelWidth: 1)
        #expect(wide.splitWork == 10 * 48)
    }
}
