import Foundation
import Testing
import VisageGeometry
import VisageImage

struct DecodingTests {
    @Test("Decodes like the reference: PNG and PNM exactly, JPEG within ±1", arguments: Fixtures.manifest.decode)
    func decodesLikeReference(_ entry: Manifest.Decode) throws {
        let image = try Image(contentsOf: Fixtures.url(entry.file))
        let reference = try Fixtures.reference(entry)
        #expect(image.pixelFormat == reference.pixelFormat)
        #expect((image.width, image.height) == (reference.width, reference.height))
        let difference = try #require(maximumDifference(image, reference))
        #expect(difference <= entry.tolerance)
    }

    @Test("Header-only info agrees with the decode", arguments: Fixtures.manifest.decode)
    func infoAgreesWithDecode(_ entry: Manifest.Decode) throws {
        let info = try ImageFileInfo.read(contentsOf: Fixtures.url(entry.file))
        #expect((info.width, info.height) == (entry.width, entry.height))
        #expect(info.pixelFormat.rawValue == entry.pixelFormat)
        #expect(info.orientation == .up)
    }

    @Test func infoReportsFormatDetails() throws {
        let progressive = try ImageFileInfo.read(contentsOf: Fixtures.url("jpeg-progressive.jpg"))
        #expect(progressive.format == .jpeg && progressive.isProgressive && progressive.colorModel == "YCbCr")
        let cmyk = try ImageFileInfo.read(contentsOf: Fixtures.url("jpeg-cmyk.jpg"))
        #expect(cmyk.colorModel == "CMYK" || cmyk.colorModel == "YCCK")
        let interlaced = try ImageFileInfo.read(contentsOf: Fixtures.url("png-interlaced.png"))
        #expect(interlaced.format == .png && interlaced.isProgressive)
        let wide = try ImageFileInfo.read(contentsOf: Fixtures.url("png-rgb16.png"))
        #expect(wide.bitDepth == 16 && wide.colorModel == "RGB")
        let palette = try ImageFileInfo.read(contentsOf: Fixtures.url("png-palette-trns.png"))
        #expect(palette.colorModel == "palette" && palette.pixelFormat == .rgba8)
        let pnm = try ImageFileInfo.read(contentsOf: Fixtures.url("pnm-p5-16bit.pgm"))
        #expect(pnm.format == .pnm && pnm.bitDepth == 16 && pnm.pixelFormat == .gray8)
    }

    @Test("JPEG maximumDimension decodes with libjpeg's scaled IDCT", arguments: Fixtures.manifest.scaledJPEG)
    func jpegScaledDecode(_ entry: Manifest.ScaledJPEG) throws {
        let image = try Image(contentsOf: Fixtures.url(entry.file), options: .init(maximumDimension: entry.maximumDimension))
        let difference = try #require(maximumDifference(image, Fixtures.reference(entry)))
        #expect(difference <= entry.tolerance)
    }

    @Test func jpegMaximumDimensionBetweenScalesAreaResizesTheRest() throws {
        // 1/8 gives 5×3; the last step to a longer side of 4 is an area resize.
        let image = try Image(contentsOf: Fixtures.url("jpeg-baseline.jpg"), options: .init(maximumDimension: 4))
        let eighth = try Image(contentsOf: Fixtures.url("jpeg-baseline.jpg"), options: .init(maximumDimension: 5))
        #expect((eighth.width, eighth.height) == (5, 3))
        #expect(image.packedPixels == (try eighth.resized(width: 4, height: 2, method: .area)).packedPixels)
    }

    @Test func pngMaximumDimensionAreaResizes() throws {
        let full = try Image(contentsOf: Fixtures.url("png-rgb8.png"))
        let small = try Image(contentsOf: Fixtures.url("png-rgb8.png"), options: .init(maximumDimension: 12))
        #expect((small.width, small.height) == (12, 7))
        #expect(small.packedPixels == (try full.resized(width: 12, height: 7, method: .area)).packedPixels)
        let unchanged = try Image(contentsOf: Fixtures.url("png-rgb8.png"), options: .init(maximumDimension: 100))
        #expect(unchanged.packedPixels == full.packedPixels)
    }

    @Test func jpegWarningsOtherThanTruncationAreTolerated() throws {
        var bytes = try [UInt8](Fixtures.data("jpeg-baseline.jpg"))
        #expect(bytes.suffix(2) == [0xFF, 0xD9])
        // libjpeg warns "extraneous bytes before marker 0xd9" and still decodes every pixel.
        bytes.insert(contentsOf: [0, 0, 0], at: bytes.count - 2)
        let image = try Image(data: Data(bytes))
        #expect(image.packedPixels == (try Image(contentsOf: Fixtures.url("jpeg-baseline.jpg"))).packedPixels)
    }

    @Test func decodesFromDataLikeFromFile() throws {
        let fromFile = try Image(contentsOf: Fixtures.url("png-palette.png"))
        let fromData = try Image(data: Fixtures.data("png-palette.png"))
        #expect(fromFile.packedPixels == fromData.packedPixels)
    }
}
