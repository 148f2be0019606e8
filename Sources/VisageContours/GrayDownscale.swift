import VisageImage

/// Gray conversion and downscaling in one pass, for images larger than the working size.
///
/// Converting a 12-megapixel photo to gray and then shrinking it would write and read a whole
/// gray copy; here each source pixel's luma (Rec. 601 in the same fixed point as
/// `Image.converted(to: .gray8)`) is added straight into the sum of the output pixel whose
/// block holds it. Blocks are the integer split of the source (output pixel i takes source
/// columns ⌊i·W/w⌋ ..< ⌊(i+1)·W/w⌋), so every source pixel counts once and each output is the
/// rounded mean of its block.
package enum GrayDownscale {
    /// A `width × height` gray8 image of `image` (same orientation); `width ≤ image.width` and
    /// `height ≤ image.height`, both positive.
    package static func gray(_ image: Image, width: Int, height: Int) throws(ImageError) -> Image {
        let sourceWidth = image.width, sourceHeight = image.height
        let format = image.pixelFormat
        let step = format.bytesPerPixel
        let (r, g, b) = format.rgbOffsets
        // Output column of each source column.
        var column = [Int32](repeating: 0, count: sourceWidth)
        for index in 0 ..< width {
            for x in index * sourceWidth / width ..< (index + 1) * sourceWidth / width { column[x] = Int32(index) }
        }
        var sums = [UInt64](repeating: 0, count: width)
        return try Image(
            uninitializedWidth: width, height: height, pixelFormat: .gray8, orientation: image.orientation
        ) { out in
            image.withUnsafeBytes { source in
                column.withUnsafeBufferPointer { column in
                    sums.withUnsafeMutableBufferPointer { sums in
                        for y in 0 ..< height {
                            let rowStart = y * sourceHeight / height, rowEnd = (y + 1) * sourceHeight / height
                            for index in 0 ..< width { sums[index] = 0 }
                            for sourceRow in rowStart ..< rowEnd {
                                let pixels = source.baseAddress!.advanced(by: sourceRow * image.bytesPerRow)
                                    .assumingMemoryBound(to: UInt8.self)
                                if format == .gray8 {
                                    for x in 0 ..< sourceWidth { sums[Int(column[x])] &+= UInt64(pixels[x]) << 16 }
                                } else {
                                    for x in 0 ..< sourceWidth {
                                        let pixel = pixels + x * step
                                        let luma = 19595 * UInt64(pixel[r]) + 38470 * UInt64(pixel[g]) + 7471 * UInt64(pixel[b])
                                        sums[Int(column[x])] &+= luma
                                    }
                                }
                            }
                            let rows = UInt64(rowEnd - rowStart)
                            let output = out.baseAddress!.advanced(by: y * width).assumingMemoryBound(to: UInt8.self)
                            var x = 0
                            for index in 0 ..< width {
                                let start = x
                                while x < sourceWidth && Int(column[x]) == index { x += 1 }
                                let count = UInt64(x - start) * rows << 16
                                output[index] = UInt8(truncatingIfNeeded: (sums[index] + count / 2) / max(count, 1))
                            }
                        }
                    }
                }
            }
        }
    }
}
