import VisageContours
import VisageGeometry
import VisageImage

/// Test images made from masks: foreground dark (0) on light (255) unless told otherwise.
extension BinaryMask {
    func grayImage(foreground: UInt8 = 0, background: UInt8 = 255, orientation: ImageOrientation = .up) throws -> Image {
        try Image(
            width: width, height: height, pixelFormat: .gray8,
            pixels: pixels.map { $0 != 0 ? foreground : background }, orientation: orientation)
    }

    /// A mask with the listed pixel rectangles (x, y, width, height) set, later ones toggling earlier ones.
    static func rectangles(width: Int, height: Int, _ rects: [(Int, Int, Int, Int)]) -> BinaryMask {
        var pixels = [UInt8](repeating: 0, count: width * height)
        for (x0, y0, w, h) in rects {
            for y in y0 ..< y0 + h { for x in x0 ..< x0 + w { pixels[y * width + x] ^= 255 } }
        }
        return BinaryMask(width: width, height: height, pixels: pixels)
    }
}
