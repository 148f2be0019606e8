import Foundation
import Testing
import VisageGeometry
import VisageImage

struct EncodingTests {
    @Test("PNG round trip is exact", arguments: PixelFormat.allCases)
    func pngRoundTrip(_ format: PixelFormat) throws {
        var generator = SeededGenerator(state: 11)
        let image = try randomImage(width: 37, height: 23, format: format, using: &generator)
        let decoded = try Image(data: image.pngData())
        // BGRA comes back as RGBA: the file stores RGBA either way.
        let expected = format == .bgra8 ? image.converted(to: .rgba8) : image
        #expect(decoded.pixelFormat == expected.pixelFormat)
        #expect(decoded.packedPixels == expected.packedPixels)
    }

    @Test("JPEG round trip is close", arguments: PixelFormat.allCases)
    func jpegRoundTrip(_ format: PixelFormat) throws {
        // A smooth picture, which JPEG at quality 95 keeps within a few levels everywhere.
        let (width, height) = (37, 23)
        let pixels: [UInt8] = (0..<(width * height)).flatMap { index -> [UInt8] in
            let (x, y) = (index % width, index / width)
            return [UInt8(x * 6), UInt8(y * 10), UInt8(255 - x * 3 - y * 4)]
        }
        let photo = try Image(width: width, height: height, pixelFormat: .rgb8, pixels: pixels).converted(to: format)
        let data = try photo.jpegData(quality: 95)
        #expect(try ImageFileInfo.read(data: data).format == .jpeg)
        let decoded = try Image(data: data)
        let expected = format == .gray8 ? photo : photo.converted(to: .rgb8)
        #expect(decoded.pixelFormat == expected.pixelFormat)
        let errors = zip(decoded.packedPixels, expected.packedPixels).map { abs(Int($0) - Int($1)) }
        #expect(errors.max()! <= 6)
        #expect(Double(errors.reduce(0, +)) / Double(errors.count) < 1)
    }

    @Test func encodersWriteTheUprightPicture() throws {
        let raw = try Image(contentsOf: Fixtures.url("exif-6.png"), options: .init(applyOrientation: false))
        let decoded = try Image(data: raw.pngData(), options: .init(applyOrientation: false))
        #expect(decoded.orientation == .up)
        #expect(decoded.packedPixels == raw.applyingOrientation().packedPixels)
    }

    @Test func paddedRowsEncode() throws {
        let pixels: [UInt8] = [1, 2, 3, 0, 4, 5, 6, 0]
        let image = try Image(width: 1, height: 2, pixelFormat: .rgb8, pixels: pixels, bytesPerRow: 4)
        #expect(try Image(data: image.pngData()).packedPixels == [1, 2, 3, 4, 5, 6])
    }

    @Test func jpegQualityIsChecked() throws {
        let image = try Image(width: 1, height: 1, pixelFormat: .gray8, pixels: [0])
        #expect(throws: ImageError.invalidParameter(name: "JPEG quality", value: "101", rule: "must be in 1…100")) {
            try image.jpegData(quality: 101)
        }
    }
}
