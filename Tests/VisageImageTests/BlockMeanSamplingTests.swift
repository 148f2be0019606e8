import Foundation
import Testing
import VisageImage

/// `sampleBlockMeans`: a picture decoded at 1/8 (its blocks' means) sampled at the whole picture's points.
struct BlockMeanSamplingTests {
    /// A reduced picture of `width × height` whose block means are those of a whole picture that is linear
    /// in x (red: 0.25·x + 0.125) and in y (green: 0.25·y + 0.125), blue constant: the mean of a linear
    /// function over an 8×8 block is its value at the block's centre (8i + 3.5), here a whole level.
    static func rampMeans(width: Int, height: Int) throws -> Image {
        var pixels = [UInt8]()
        for j in 0..<height {
            for i in 0..<width { pixels += [UInt8(2 * i + 1), UInt8(2 * j + 1), 100] }
        }
        return try Image(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    static func sample(
        _ image: Image, transform: PixelTransform, size: (Int, Int), full: (Int, Int)
    ) -> (sampled: Bool, tensor: [Float]) {
        var tensor = [Float](repeating: .nan, count: size.0 * size.1 * 3)
        let sampled = tensor.withUnsafeMutableBufferPointer {
            image.sampleBlockMeans(
                into: $0, width: size.0, height: size.1, transform: transform, fullWidth: full.0, fullHeight: full.1, factor: 8,
                valueRange: 0...255)
        }
        return (sampled, tensor)
    }

    /// Linear pictures are reproduced exactly at the whole picture's points, away from the edges (where the
    /// taps are clamped): the geometry is the whole picture's, and neither the box's inverse nor the cubic
    /// bends a line. Both orientations of the axes (a transposed map is an EXIF rotation's).
    @Test(arguments: [false, true])
    func linearPicturesAreReproducedAtTheWholePicturesPoints(transposed: Bool) throws {
        let image = try Self.rampMeans(width: 100, height: 75)   // a 800×600 picture at 1/8
        // Output 40×30, one whole-picture point every 17.3 pixels, starting off the pixel grid.
        let (step, start) = (17.3, (x: 31.7, y: 24.2))
        let transform = transposed
            ? PixelTransform(a: 0, b: step, c: step, d: 0, tx: start.x, ty: start.y)
            : PixelTransform(a: step, b: 0, c: 0, d: step, tx: start.x, ty: start.y)
        let size = transposed ? (30, 40) : (40, 30)
        let (sampled, tensor) = Self.sample(image, transform: transform, size: size, full: (800, 600))
        #expect(sampled)
        var checked = 0
        for y in 0..<size.1 {
            for x in 0..<size.0 {
                let sx = transposed ? start.x + step * Double(y) : start.x + step * Double(x)
                let sy = transposed ? start.y + step * Double(x) : start.y + step * Double(y)
                // Three reduced pixels (24 whole ones) from every edge, all six taps lie inside.
                guard (24...(800 - 25)).contains(sx), (24...(600 - 25)).contains(sy) else { continue }
                let pixel = tensor[(y * size.0 + x) * 3..<(y * size.0 + x) * 3 + 3].map(Double.init)
                #expect(abs(pixel[0] - (0.25 * sx + 0.125)) < 1e-3, "red at \(sx), \(sy): \(pixel[0])")
                #expect(abs(pixel[1] - (0.25 * sy + 0.125)) < 1e-3, "green at \(sx), \(sy): \(pixel[1])")
                #expect(abs(pixel[2] - 100) < 1e-3)
                checked += 1
            }
        }
        #expect(checked > 500)
    }

    /// Inside the whole picture a point reads the nearest blocks even half a block from the edge; the zero
    /// border comes in only as the whole picture's bilinear warp lets it, within one whole-picture pixel.
    @Test func edgesFollowTheWholePicture() throws {
        let image = try Image(width: 10, height: 5, pixelFormat: .rgb8, pixels: [UInt8](repeating: 200, count: 10 * 5 * 3))
        // A 80×40 picture; one output row at each of these whole-picture rows, columns across the picture.
        let rows: [Double] = [-2, -1, -0.25, 0, 0.4, 20, 39, 39.5, 40, 41]
        let coverage: [Double] = [0, 0, 0.75, 1, 1, 1, 1, 0.5, 0, 0]
        for (row, expected) in zip(rows, coverage) {
            let transform = PixelTransform(a: 7, b: 0, c: 0, d: 1, tx: 3, ty: row)
            let (sampled, tensor) = Self.sample(image, transform: transform, size: (11, 1), full: (80, 40))
            #expect(sampled)
            for value in tensor { #expect(abs(Double(value) - 200 * expected) < 1e-3, "row \(row): \(value)") }
        }
    }

    /// Sharpening never leaves 0…255, and a map that is not axis-aligned is refused (the caller warps).
    @Test func valuesStayInRangeAndRotationsAreRefused() throws {
        // A checkerboard of blocks: the box's inverse overshoots at every edge before clamping.
        var pixels = [UInt8]()
        for j in 0..<20 {
            for i in 0..<20 { pixels += Array(repeating: (i + j) % 2 == 0 ? 0 : 255, count: 3) }
        }
        let image = try Image(width: 20, height: 20, pixelFormat: .rgb8, pixels: pixels)
        let (sampled, tensor) = Self.sample(
            image, transform: PixelTransform(a: 2.3, b: 0, c: 0, d: 2.3, tx: 1, ty: 1), size: (64, 64), full: (160, 160))
        #expect(sampled)
        let (lowest, highest) = (tensor.min() ?? .nan, tensor.max() ?? .nan)
        #expect(lowest >= 0 && highest <= 255, "\(lowest)…\(highest)")
        #expect(lowest < 5 && highest > 250, "\(lowest)…\(highest)")
        let rotated = PixelTransform(a: 0.8, b: -0.6, c: 0.6, d: 0.8, tx: 50, ty: 10)
        let refused = Self.sample(image, transform: rotated, size: (8, 8), full: (160, 160))
        #expect(!refused.sampled)
        let written = refused.tensor.filter { !$0.isNaN }.count
        #expect(written == 0, "nothing written")
    }
}
