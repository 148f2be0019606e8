import Foundation
import Testing
import VisageImage

/// Damaged files must fail with an `ImageError` or decode to a consistent image: never crash or hang.
struct MutationTests {
    @Test("Random damage never crashes a decoder", arguments: ["jpeg-progressive.jpg", "jpeg-cmyk.jpg", "exif-6.jpg", "png-interlaced.png", "png-palette-trns.png", "exif-6.png", "pnm-p3.ppm", "pnm-p5-16bit.pgm",
        "formats/heic-rgb.heic", "formats/heic-alpha.heic", "formats/avif-alpha.avif", "formats/webp-lossy.webp", "formats/webp-alpha.webp",
        "formats/webp-animated.webp", "formats/tiff-lzw.tiff", "formats/tiff-jpeg.tiff", "formats/tiff-two-pages.tiff",
        "formats/gif-interlaced.gif", "formats/gif-animated.gif", "formats/bmp-4.bmp", "formats/bmp-565.bmp", "formats/bmp-32-alpha.bmp"])
    func survivesDamage(_ name: String) throws {
        let original = try [UInt8](Fixtures.data(name))
        var generator = SeededGenerator(state: UInt64(name.utf8.count) ^ 0xDA3A6E)
        let options = ImageDecodingOptions(pixelLimit: 1 << 20)
        for _ in 0..<150 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                default: bytes.removeSubrange(at...)
                }
                if bytes.isEmpty { break }
            }
            do {
                let image = try Image(data: Data(bytes), options: options)
                #expect(image.width > 0 && image.height > 0 && image.width * image.height <= 1 << 20)
                #expect(image.packedPixels.count == image.width * image.height * image.pixelFormat.bytesPerPixel)
            } catch {
                #expect(!error.description.isEmpty)
            }
            _ = try? ImageFileInfo.read(data: Data(bytes))
        }
    }
}
