import Foundation
import Visage

/// Synthetic 640×480 video made in the test from the landmark fixtures' photos: faces cut out of them,
/// scaled and pasted onto a plain background at known places, or whole photos in sequence.
enum TrackingSequences {
    static let width = 640, height = 480
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("landmarks")

    static func photo(_ name: String) -> Image {
        try! Image(contentsOf: folder.appendingPathComponent(name)).converted(to: .rgb8)
    }

    /// The region `x, y, width, height` of `image`.
    static func crop(_ image: Image, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Image {
        var pixels: [UInt8] = []
        for row in y..<(y + h) {
            for column in x..<(x + w) { pixels += image.pixel(x: column, y: row) }
        }
        return try! Image(width: w, height: h, pixelFormat: .rgb8, pixels: pixels)
    }

    /// A plain grey frame with each patch pasted (scaled to `side` wide, aspect kept) with its top left at `x, y`;
    /// later patches cover earlier ones.
    static func canvas(_ patches: [(image: Image, x: Int, y: Int, side: Int)]) -> Image {
        var pixels = [UInt8](repeating: 118, count: width * height * 3)
        for patch in patches {
            let h = max(1, patch.side * patch.image.height / patch.image.width)
            let scaled = try! patch.image.resized(width: patch.side, height: h, method: .area).packedPixels
            for row in 0..<h where (0..<height).contains(patch.y + row) {
                for column in 0..<patch.side where (0..<width).contains(patch.x + column) {
                    let from = (row * patch.side + column) * 3, to = ((patch.y + row) * width + patch.x + column) * 3
                    pixels[to..<(to + 3)] = scaled[from..<(from + 3)]
                }
            }
        }
        return try! Image(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    /// The astronaut's head and shoulders (face detected at about x 221…342, y 103…224 of the 640×480 photo).
    static let astronautFace = crop(photo("astronaut.jpg"), 160, 40, 250, 260)
    /// The cameraman's head, a different person.
    static let cameramanFace = crop(photo("camera.jpg"), 170, 120, 200, 220)

    static func frames(_ images: [Image], frameRate: Double) -> [VideoFrame] {
        images.enumerated().map { VideoFrame(image: $1, index: $0, time: Double($0) / frameRate) }
    }
}
