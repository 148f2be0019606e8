extension Image {
    /// The same picture in another pixel format.
    ///
    /// Colour to gray uses Rec. 601 luma in Pillow's fixed point, `(19595 R + 38470 G + 7471 B + 2¹⁵) >> 16`;
    /// gray to colour replicates the value; adding alpha makes it opaque (255); dropping alpha discards it
    /// without compositing. Returns `self` (sharing storage) when the format is already `format`.
    public func converted(to format: PixelFormat) -> Image {
        if format == pixelFormat { return self }
        let source = pixelFormat
        let (inStep, outStep) = (source.bytesPerPixel, format.bytesPerPixel)
        let (r, g, b) = source.rgbOffsets
        let (outR, outG, outB) = format.rgbOffsets
        let inAlpha = source.alphaOffset
        let outAlpha = format.alphaOffset
        return try! Image(uninitializedWidth: width, height: height, pixelFormat: format, orientation: orientation) { out in
            withExtendedLifetime(storage) {
                for row in 0..<height {
                    let input = UnsafeRawPointer(storage.base + row * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    let output = (out.baseAddress! + row * width * outStep).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width {
                        let pixel = input + x * inStep
                        let target = output + x * outStep
                        if format == .gray8 {
                            let luma = 19595 * Int(pixel[r]) + 38470 * Int(pixel[g]) + 7471 * Int(pixel[b])
                            target[0] = UInt8(truncatingIfNeeded: (luma + 0x8000) >> 16)
                        } else {
                            (target[outR], target[outG], target[outB]) = (pixel[r], pixel[g], pixel[b])
                            if let outAlpha { target[outAlpha] = inAlpha.map { pixel[$0] } ?? 255 }
                        }
                    }
                }
            }
        }
    }
}
