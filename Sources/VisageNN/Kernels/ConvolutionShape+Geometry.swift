import CVisageKernels

extension ConvolutionShape {
    /// The C mirror of this shape; only valid shapes (non-negative values) are converted.
    var geometry: visage_conv_geometry {
        visage_conv_geometry(
            input_height: inputHeight, input_width: inputWidth, input_channels: inputChannels,
            output_height: outputHeight, output_width: outputWidth, output_channels: outputChannels,
            kernel_height: kernelHeight, kernel_width: kernelWidth,
            stride_y: strideY, stride_x: strideX, pad_top: padTop, pad_left: padLeft)
    }
}
