/// A binary image: one byte per pixel, row-major, nonzero for foreground.
///
/// Border following reads this; the request produces it by binarizing the adjusted gray image.
/// It has no stride or pixel format because it is always built by Visage itself.
package struct BinaryMask: Sendable, Hashable {
    package let width: Int
    package let height: Int
    /// `width × height` bytes, row after row; 0 is background, anything else foreground.
    package var pixels: [UInt8]

    /// A mask of `width × height` pixels. `pixels.count` must equal `width × height`.
    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "mask size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// True when every pixel is foreground or every pixel is background: an image without edges.
    package var isUniform: Bool {
        guard let first = pixels.first else { return true }
        let foreground = first != 0
        return !pixels.contains { ($0 != 0) != foreground }
    }
}
