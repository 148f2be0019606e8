import Foundation
import Testing
import VisageImage

/// libjpeg-turbo writes rows that start 16-byte aligned with non-temporal stores, so CJPEG decodes
/// those through a strip of unaligned rows and copies them. Wherever the rows land, the pixels must be
/// the same: here against a destination whose rows are never aligned (decoded in place), at full scale
/// and at 1/2 (the reduced decode of fast detection), and with a stride that mixes both kinds of row.
struct JPEGRowPlacementTests {
    /// `count` rows of `name` decoded at `scale`/8 into a buffer `offset` bytes past a 64-byte boundary,
    /// `padding` bytes between rows; returns the rows without the padding.
    static func decode(_ name: String, scale: Int, offset: Int, padding: Int) throws -> (pixels: [UInt8], width: Int, height: Int) {
        let data = try Fixtures.data(name)
        return try data.withUnsafeBytes { bytes in
            let decoder = try JPEGDecoder(bytes, pixelLimit: 1 << 24)
            let size = try decoder.start(scaleNumerator: scale)
            let rowBytes = size.width * decoder.outputBytesPerPixel, stride = rowBytes + padding
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: stride * size.height + 64, alignment: 64)
            defer { buffer.deallocate() }
            try decoder.readRows(into: buffer + offset, bytesPerRow: stride, count: size.height)
            var pixels: [UInt8] = []
            for row in 0..<size.height {
                pixels += UnsafeRawBufferPointer(start: buffer + offset + row * stride, count: rowBytes)
            }
            return (pixels, size.width, size.height)
        }
    }

    @Test(arguments: ["jpeg-baseline.jpg", "jpeg-444.jpg", "jpeg-progressive.jpg", "jpeg-gray.jpg"], [8, 4])
    func alignedRowsGetTheSamePixelsAsUnalignedOnes(name: String, scale: Int) throws {
        let unaligned = try Self.decode(name, scale: scale, offset: 1, padding: 0)
        #expect(try Self.decode(name, scale: scale, offset: 0, padding: 0).pixels == unaligned.pixels)
        // Rows 5 bytes apart beyond their width: some start aligned, some not.
        #expect(try Self.decode(name, scale: scale, offset: 0, padding: 5).pixels == unaligned.pixels)
        #expect(try Self.decode(name, scale: scale, offset: 16, padding: 16).pixels == unaligned.pixels)
    }

    /// `Image`'s RGB decodes small enough to stay in the cache start 8 bytes past a 64-byte boundary, so
    /// libjpeg writes their rows in place (no strip, no copy); larger ones, gray and the 1/8 DC decode keep
    /// the aligned start. The pixels are the same either way (above).
    @Test func smallRGBDecodesStartPastAnAlignedAddress() throws {
        func start(_ image: Image) -> Int { Int(bitPattern: image.storage.base) & 63 }
        let rgb = try Image(data: Fixtures.data("jpeg-baseline.jpg"), options: .init(applyOrientation: false))
        #expect(start(rgb) == 8)
        // At 1/2, the reduced decode of fast detection.
        var half = ImageDecodingOptions(applyOrientation: false)
        half.minimumDimension = max(rgb.width, rgb.height) / 2
        let reduced = try Image(data: Fixtures.data("jpeg-baseline.jpg"), options: half)
        #expect(reduced.width == (rgb.width + 1) / 2 && start(reduced) == 8)
        #expect(start(try Image(data: Fixtures.data("jpeg-gray.jpg"), options: .init(applyOrientation: false))) == 0)
        let large = try Image(width: 800, height: 600, pixelFormat: .rgb8, pixels: [UInt8](repeating: 90, count: 800 * 600 * 3))
        let decoded = try Image(data: Data(JPEGCodec.encode(large, quality: 80)), options: .init(applyOrientation: false))
        #expect(decoded.width * decoded.height * 3 > 1 << 20 && start(decoded) == 0)
    }

    /// The decode `Image` makes (rows written in place) is the reference decode's.
    @Test func imageDecodeMatchesTheReference() throws {
        let unaligned = try Self.decode("jpeg-baseline.jpg", scale: 8, offset: 1, padding: 0)
        let image = try Image(data: Fixtures.data("jpeg-baseline.jpg"), options: .init(applyOrientation: false))
        #expect(image.packedPixels == unaligned.pixels)
        // Pillow's decode, within the manifest's tolerance of one level.
        let reference = try [UInt8](Fixtures.data("jpeg-baseline.raw"))
        #expect(reference.count == unaligned.pixels.count)
        #expect(zip(reference, unaligned.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }
}
