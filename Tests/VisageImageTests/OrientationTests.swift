import Foundation
import Testing
import VisageGeometry
import VisageImage

struct OrientationTests {
    @Test("EXIF orientation is applied on load: the upright picture", arguments: Fixtures.manifest.orientation)
    func appliesOrientation(_ entry: Manifest.Orientation) throws {
        let image = try Image(contentsOf: Fixtures.url(entry.file))
        #expect(image.orientation == .up)
        let difference = try #require(maximumDifference(image, Fixtures.reference(entry)))
        #expect(difference <= entry.tolerance)
    }

    @Test("Raw pixels and the orientation are kept on request", arguments: Fixtures.manifest.orientation)
    func keepsRawPixels(_ entry: Manifest.Orientation) throws {
        let url = Fixtures.url(entry.file)
        let raw = try Image(contentsOf: url, options: .init(applyOrientation: false))
        #expect(raw.orientation.exifValue == entry.orientation)
        #expect((raw.width, raw.height) == (entry.storedWidth, entry.storedHeight))
        #expect((Int(raw.size.width), Int(raw.size.height)) == (entry.width, entry.height))
        let upright = try Image(contentsOf: url)
        #expect(raw.applyingOrientation().packedPixels == upright.packedPixels)
        let info = try ImageFileInfo.read(contentsOf: url)
        #expect(info.orientation.exifValue == entry.orientation)
        #expect((info.width, info.height) == (entry.storedWidth, entry.storedHeight))
    }

    /// Each upright pixel must come from the stored pixel that `ImageOrientation.rawUnitPoint` names.
    @Test(arguments: ImageOrientation.allCases)
    func followsTheGeometryDefinition(_ orientation: ImageOrientation) throws {
        let (width, height) = (5, 3)
        let pixels: [UInt8] = (0..<(width * height)).flatMap { index -> [UInt8] in [UInt8(index), UInt8(index * 2), 7] }
        let raw = try Image(width: width, height: height, pixelFormat: .rgb8, pixels: pixels, orientation: orientation)
        let upright = raw.applyingOrientation()
        let (uprightWidth, uprightHeight) = orientation.uprightSize(rawWidth: width, rawHeight: height)
        #expect((upright.width, upright.height) == (uprightWidth, uprightHeight))
        for j in 0..<uprightHeight {
            for i in 0..<uprightWidth {
                let unit = orientation.rawUnitPoint(fromUpright: (Double(i) + 0.5) / Double(uprightWidth), (Double(j) + 0.5) / Double(uprightHeight))
                let x = Int(unit.x * Double(width)), y = Int(unit.y * Double(height))
                #expect(upright.pixel(x: i, y: j) == raw.pixel(x: x, y: y))
            }
        }
    }

    @Test func withOrientationSharesThePixels() throws {
        let image = try Image(width: 2, height: 1, pixelFormat: .gray8, pixels: [1, 2])
        let turned = image.withOrientation(.left)
        #expect(turned.orientation == .left && (turned.width, turned.height) == (2, 1))
        #expect(turned.withUnsafeBytes { $0.baseAddress } == image.withUnsafeBytes { $0.baseAddress })
        #expect(turned.applyingOrientation().packedPixels == [2, 1])
    }
}
