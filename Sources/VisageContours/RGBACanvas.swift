/// A small RGBA raster for drawing contour outlines into a PNG.
///
/// Lines are Bresenham's, thickened by stamping a square pen at every step; no anti-aliasing,
/// which keeps one-pixel outlines crisp on the grid they were traced on.
package struct RGBACanvas: Sendable {
    package let width: Int
    package let height: Int
    /// `width × height × 4` bytes, rows top to bottom.
    package var pixels: [UInt8]

    package init(width: Int, height: Int, fill: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0 ..< width * height {
            (pixels[4 * index], pixels[4 * index + 1], pixels[4 * index + 2], pixels[4 * index + 3]) = fill
        }
    }

    package init(width: Int, height: Int, rgba pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "canvas size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Paints a `pen × pen` square centred on pixel (x, y), clipped to the canvas.
    package mutating func stamp(x: Int, y: Int, pen: Int, color: (r: UInt8, g: UInt8, b: UInt8)) {
        let low = -(pen - 1) / 2, high = pen / 2
        let x0 = max(0, x + low), x1 = min(width - 1, x + high)
        let y0 = max(0, y + low), y1 = min(height - 1, y + high)
        guard x0 <= x1, y0 <= y1 else { return }
        for py in y0 ... y1 {
            for px in x0 ... x1 {
                let offset = 4 * (py * width + px)
                (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3]) = (color.r, color.g, color.b, 255)
            }
        }
    }

    /// A straight line between pixel positions, both ends included.
    package mutating func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int), pen: Int, color: (r: UInt8, g: UInt8, b: UInt8)) {
        var (x, y) = start
        let dx = abs(end.x - x), dy = -abs(end.y - y)
        let sx = x < end.x ? 1 : -1, sy = y < end.y ? 1 : -1
        var error = dx + dy
        while true {
            stamp(x: x, y: y, pen: pen, color: color)
            if x == end.x && y == end.y { break }
            let twice = 2 * error
            if twice >= dy { error += dy; x += sx }
            if twice <= dx { error += dx; y += sy }
        }
    }
}
