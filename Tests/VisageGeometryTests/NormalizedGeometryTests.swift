import Foundation
import Testing
import VisageGeometry

@Suite struct NormalizedGeometryTests {
    private let size = CGSize(width: 640, height: 480)

    @Test func pointOriginsAreExact() {
        let p = NormalizedPoint(x: 0.25, y: 0.75)
        #expect(p.toImageCoordinates(size) == CGPoint(x: 160, y: 360))
        #expect(p.toImageCoordinates(size, origin: .upperLeft) == CGPoint(x: 160, y: 120))
        #expect(NormalizedPoint(imagePoint: CGPoint(x: 160, y: 120), in: size, origin: .upperLeft) == p)
        #expect(NormalizedPoint(imagePoint: CGPoint(x: 160, y: 360), in: size) == p)
    }

    @Test func rectOriginsAreExact() {
        // Dyadic sizes keep every conversion exact in binary floating point.
        let size = CGSize(width: 512, height: 256)
        // A face box 128×64 px whose top-left pixel corner is at (64, 32), measured from the top.
        let pixels = CGRect(x: 64, y: 32, width: 128, height: 64)
        let rect = NormalizedRect(imageRect: pixels, in: size, origin: .upperLeft)
        #expect(rect == NormalizedRect(x: 0.125, y: 0.625, width: 0.25, height: 0.25))
        #expect(rect.toImageCoordinates(size, origin: .upperLeft) == pixels)
        #expect(rect.toImageCoordinates(size) == CGRect(x: 64, y: 160, width: 128, height: 64))
        #expect(NormalizedRect(imageRect: CGRect(x: 64, y: 160, width: 128, height: 64), in: size) == rect)
        #expect(rect.verticallyFlipped() == NormalizedRect(x: 0.125, y: 0.125, width: 0.25, height: 0.25))
        #expect(rect.verticallyFlipped().verticallyFlipped() == rect)
    }

    /// The same physical corner of the picture, seen upright and in the stored pixels.
    @Test(arguments: ImageOrientation.allCases)
    func rawCoordinatesFollowOrientation(_ orientation: ImageOrientation) {
        let raw = CGSize(width: 400, height: 300)
        // The upright top-left corner (Vision: x 0, y 1) is where the orientation puts it in the stored buffer.
        let corner = NormalizedPoint(x: 0, y: 1).toRawImageCoordinates(raw, orientation: orientation, origin: .upperLeft)
        let expected = orientation.rawUnitPoint(fromUpright: 0, 0)
        #expect(corner == CGPoint(x: expected.x * 400, y: expected.y * 300))
        // By default from the buffer's lower left, as every conversion.
        let fromBelow = NormalizedPoint(x: 0, y: 1).toRawImageCoordinates(raw, orientation: orientation)
        #expect(fromBelow == CGPoint(x: expected.x * 400, y: (1 - expected.y) * 300))

        let rect = NormalizedRect(x: 0.125, y: 0.25, width: 0.375, height: 0.5)
        let rawRect = rect.toRawImageCoordinates(raw, orientation: orientation, origin: .upperLeft)
        let back = NormalizedRect(rawImageRect: rawRect, in: raw, orientation: orientation, origin: .upperLeft)
        #expect(abs(back.minX - rect.minX) < 1e-12 && abs(back.minY - rect.minY) < 1e-12)
        #expect(abs(back.width - rect.width) < 1e-12 && abs(back.height - rect.height) < 1e-12)
        let area = Double(rawRect.width * rawRect.height) / (400 * 300)
        #expect(abs(area - rect.area) < 1e-12, "right-angle orientations keep areas")

        let uprightSize = orientation.uprightSize(rawWidth: 400, rawHeight: 300)
        #expect(Double(rawRect.width) == (orientation.swapsDimensions ? 0.5 * 400 : 0.375 * 400))
        #expect(uprightSize.width == (orientation.swapsDimensions ? 300 : 400))
    }

    @Test(arguments: ImageOrientation.allCases, [CoordinateOrigin.lowerLeft, .upperLeft])
    func rawPointRoundTrip(_ orientation: ImageOrientation, _ origin: CoordinateOrigin) {
        let raw = CGSize(width: 123, height: 77)
        let p = NormalizedPoint(x: 0.125, y: 0.625)
        let pixel = p.toRawImageCoordinates(raw, orientation: orientation, origin: origin)
        let back = NormalizedPoint(rawImagePoint: pixel, in: raw, orientation: orientation, origin: origin)
        #expect(abs(back.x - p.x) < 1e-12 && abs(back.y - p.y) < 1e-12)
    }

    @Test func intersectionOverUnion() {
        let a = NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5)
        let b = NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        #expect(abs(a.intersectionOverUnion(b) - 0.0625 / 0.4375) < 1e-12)
        #expect(a.intersectionOverUnion(a) == 1)
        #expect(a.intersectionOverUnion(NormalizedRect(x: 0.6, y: 0.6, width: 0.1, height: 0.1)) == 0)
        #expect(a.intersectionOverUnion(NormalizedRect(x: 0.1, y: 0.1, width: 0, height: 0)) == 0)
    }
}
