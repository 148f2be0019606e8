/// The geometry of one 2-D convolution over an NHWC float32 tensor with batch 1.
///
/// Padding is implicit zeros: `padTop`/`padLeft` say how far the first window starts before
/// the input; the bottom and right padding follow from the output size, so any tap that falls
/// outside the input reads zero. Dilation is always 1 (every bundled model uses 1).
package struct ConvolutionShape: Sendable, Hashable {
    package var inputHeight, inputWidth, inputChannels: Int
    package var outputHeight, outputWidth, outputChannels: Int
    package var kernelHeight, kernelWidth: Int
    package var strideY, strideX: Int
    package var padTop, padLeft: Int

    package init(
        inputHeight: Int, inputWidth: Int, inputChannels: Int,
        outputHeight: Int, outputWidth: Int, outputChannels: Int,
        kernelHeight: Int, kernelWidth: Int,
        strideY: Int = 1, strideX: Int = 1,
        padTop: Int = 0, padLeft: Int = 0
    ) {
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth
        self.inputChannels = inputChannels
        self.outputHeight = outputHeight
        self.outputWidth = outputWidth
        self.outputChannels = outputChannels
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.strideY = strideY
        self.strideX = strideX
        self.padTop = padTop
        self.padLeft = padLeft
    }

    /// Every extent and stride positive, paddings non-negative: the only rules the kernels rely on.
    /// The model reader checks tensor sizes against these before it builds a kernel.
    package var isValid: Bool {
        inputHeight > 0 && inputWidth > 0 && inputChannels > 0
            && outputHeight > 0 && outputWidth > 0 && outputChannels > 0
            && kernelHeight > 0 && kernelWidth > 0 && strideY > 0 && strideX > 0
            && padTop >= 0 && padLeft >= 0
    }

    /// Multiply-accumulates of the whole convolution, counting padded taps (as benchmarks do).
    package var multiplyAccumulates: Int {
        outputHeight * outputWidth * outputChannels * kernelHeight * kernelWidth * inputChannels
    }
}

extension ConvolutionShape {
    /// What a convolution costs the kernels, in multiply-accumulates: every output channel panel
    /// is computed 16 wide, or 8 wide when at most 8 channels are left, so a 1-channel layer costs
    /// 8 channels' work. ``OutputSplit`` weighs it against the hand-off.
    package var splitWork: Int {
        let panel = PackedConvolution.panelWidth
        let full = outputChannels / panel, rest = outputChannels % panel
        let computed = full * panel + (rest == 0 ? 0 : rest <= panel / 2 ? panel / 2 : panel)
        return outputHeight * outputWidth * computed * kernelHeight * kernelWidth * inputChannels
    }

    /// The weights hold more values than the input and output together (``OutputSplit``'s rule 2).
    package var weightsOutweighActivations: Bool {
        kernelHeight * kernelWidth * inputChannels * outputChannels
            > inputHeight * inputWidth * inputChannels + outputHeight * outputWidth * outputChannels
    }
}
