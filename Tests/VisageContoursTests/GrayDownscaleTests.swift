import Testing
import VisageContours
import VisageImage

/// The fused gray-and-shrink pass against a plain per-block mean of Rec. 601 luma.
@Suite struct GrayDownscaleTests {
    @Test(arguments: [(PixelFormat.rgb8, 101, 67, 50, 33), (.bgra8, 640, 480, 512, 384), (.gray8, 77, 200, 25, 64), (.rgba8, 9, 9, 1, 1)])
    func matchesBlockMeans(format: PixelFormat, width: Int, height: Int, outWidth: Int, outHeight: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let pixels = (0 ..< width * height * format.bytesPerPixel).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        let image = try Image(width: width, height: height, pixelFormat: format, pixels: pixels)
        let gray = try GrayDownscale.gray(image, width: outWidth, height: outHeight)
        #expect(gray.width == outWidth && gray.height == outHeight && gray.pixelFormat == .gray8)
        let (r, g, b) = format.rgbOffsets
        let step = format.bytesPerPixel
        for y in 0 ..< outHeight {
            for x in 0 ..< outWidth {
                var sum = 0, count = 0
                for sy in y * height / outHeight ..< (y + 1) * height / outHeight {
                    for sx in x * width / outWidth ..< (x + 1) * width / outWidth {
                        let p = (sy * width + sx) * step
                        sum += format == .gray8
                            ? Int(pixels[p]) << 16
                            : 19595 * Int(pixels[p + r]) + 38470 * Int(pixels[p + g]) + 7471 * Int(pixels[p + b])
                        count += 1
                    }
                }
                let expected = (sum + (count << 16) / 2) / (count << 16)
                #expect(gray.pixel(x: x, y: y) == [UInt8(expected)], "(\(x), \(y))")
            }
        }
    }
}
