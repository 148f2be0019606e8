import Foundation
import Testing
import VisageGeometry
import VisageImage
import VisageImageStandIns

/// The image stand-ins hold the stored pixels and the orientation as iOS does, and hand Visage the
/// same picture its own decoder makes.
struct StandInImageTests {
    /// Photos written by `Scripts/make-face-fixtures.py` with EXIF orientations 1–8.
    static func fixture(_ exif: Int) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("VisageTests/Fixtures/oriented-\(exif).jpg")
    }

    @Test(arguments: 1 ... 8)
    func uiImageKeepsStoredPixelsAndOrientation(exif: Int) throws {
        let url = Self.fixture(exif)
        let image = try #require(UIImage(contentsOfFile: url.path))
        let stored = try Image(contentsOf: url, options: .init(applyOrientation: false))
        let upright = try Image(contentsOf: url)
        let cgImage = try #require(image.cgImage)
        #expect(cgImage.width == stored.width && cgImage.height == stored.height)
        #expect(CGImagePropertyOrientation(image.imageOrientation).rawValue == UInt32(exif))
        #expect(image.size == CGSize(width: upright.width, height: upright.height))
        #expect(image.visageImage.applyingOrientation().packedPixels == upright.packedPixels)
        // The same through Data, and a CIImage of it keeps the stored pixels until oriented.
        let fromData = try #require(UIImage(data: try Data(contentsOf: url)))
        #expect(fromData.imageOrientation == image.imageOrientation)
        let ciImage = try #require(CIImage(image: image))
        #expect(ciImage.extent == CGRect(x: 0, y: 0, width: stored.width, height: stored.height))
        let oriented = ciImage.oriented(CGImagePropertyOrientation(image.imageOrientation))
        #expect(oriented.extent.size == image.size)
        #expect(oriented.visageImage.applyingOrientation().packedPixels == upright.packedPixels)
        #expect(CIImage(contentsOf: url)?.extent == ciImage.extent)
    }

    /// UIKit's raw values differ from EXIF's; the conversion apps write maps names, not numbers.
    @Test func orientationConversions() {
        let uiKit: [(UIImage.Orientation, Int, UInt32)] = [
            (.up, 0, 1), (.down, 1, 3), (.left, 2, 8), (.right, 3, 6),
            (.upMirrored, 4, 2), (.downMirrored, 5, 4), (.leftMirrored, 6, 5), (.rightMirrored, 7, 7),
        ]
        for (orientation, raw, exif) in uiKit {
            #expect(orientation.rawValue == raw)
            #expect(CGImagePropertyOrientation(orientation).rawValue == exif)
            #expect(UIImage.Orientation(CGImagePropertyOrientation(orientation)) == orientation)
            #expect(ImageOrientation(orientation).exifValue == Int(exif))
        }
    }

    @Test func unreadableInputGivesNil() {
        #expect(UIImage(contentsOfFile: "/nonexistent/photo.jpg") == nil)
        #expect(UIImage(data: Data("not an image".utf8)) == nil)
        #expect(CIImage(contentsOf: URL(fileURLWithPath: "/nonexistent.png")) == nil)
        #expect(CIImage(data: Data()) == nil)
    }

    @Test func croppingRoundsOutwardsAndClips() throws {
        let pixels = (0 ..< 6 * 4).map { UInt8($0) }
        let cgImage = CGImage(visageImage: try Image(width: 6, height: 4, pixelFormat: .gray8, pixels: pixels))
        let crop = try #require(cgImage.cropping(to: CGRect(x: 1.5, y: 2.2, width: 10, height: 1)))
        #expect(crop.width == 5 && crop.height == 2)
        #expect(crop.visageImage.packedPixels == [13, 14, 15, 16, 17, 19, 20, 21, 22, 23])
        #expect(cgImage.cropping(to: CGRect(x: 7, y: 0, width: 2, height: 2)) == nil)
        #expect(UIImage(cgImage: cgImage).size == CGSize(width: 6, height: 4))
    }

    @Test func pathElementsAndBounds() {
        let path = CGPath(closedPolygons: [
            [CGPoint(x: 0.1, y: 0.2), CGPoint(x: 0.5, y: 0.2), CGPoint(x: 0.3, y: 0.6)],
            [CGPoint(x: 0.7, y: 0.7)],
        ])
        var seen: [(CGPathElementType, CGPoint?)] = []
        path.applyWithBlock { element in
            let type = element.pointee.type
            seen.append((type, type == .closeSubpath ? nil : element.pointee.points[0]))
        }
        #expect(seen.map(\.0) == [.moveToPoint, .addLineToPoint, .addLineToPoint, .closeSubpath, .moveToPoint, .closeSubpath])
        #expect(seen.compactMap(\.1) == [
            CGPoint(x: 0.1, y: 0.2), CGPoint(x: 0.5, y: 0.2), CGPoint(x: 0.3, y: 0.6), CGPoint(x: 0.7, y: 0.7),
        ])
        let box = path.boundingBox
        #expect(abs(box.minX - 0.1) < 1e-12 && abs(box.minY - 0.2) < 1e-12)
        #expect(abs(box.maxX - 0.7) < 1e-12 && abs(box.maxY - 0.7) < 1e-12)
        #expect(path.currentPoint == CGPoint(x: 0.7, y: 0.7))
        #expect(CGPath(closedPolygons: []).isEmpty && CGPath(closedPolygons: []).boundingBox.isNull)
    }

    @Test func simdNamesAreSwiftsVectors() {
        let point: simd_float2 = simd_float2(0.25, 0.75)
        let same: vector_float2 = point
        #expect(same.x == 0.25 && same.y == 0.75)
    }
}

/// `CGAffineTransform` composes in Core Graphics' order: `scaledBy`/`translatedBy` apply before the receiver.
struct StandInTransformTests {
    @Test func composesAsCoreGraphics() {
        let scale = CGAffineTransform(scaleX: 200, y: 100)
        let flip = CGAffineTransform(scaleX: 1, y: -1).translatedBy(x: 0, y: -100)
        // The y-flip tutorials write: normalized box → pixels, origin top left.
        let box = CGRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25).applying(scale).applying(flip)
        #expect(box == CGRect(x: 50, y: 25, width: 100, height: 25))
        #expect(CGPoint(x: 1, y: 2).applying(CGAffineTransform(translationX: 3, y: 4).scaledBy(x: 2, y: 2)) == CGPoint(x: 5, y: 8))
        let rotation = CGAffineTransform(rotationAngle: .pi / 2)
        let turned = CGPoint(x: 1, y: 0).applying(rotation)
        #expect(abs(turned.x) < 1e-12 && abs(turned.y - 1) < 1e-12)
        let t = scale.concatenating(flip).rotated(by: 0.3)
        let back = CGPoint(x: 7, y: -3).applying(t).applying(t.inverted())
        #expect(abs(back.x - 7) < 1e-9 && abs(back.y + 3) < 1e-9)
        #expect(CGAffineTransform.identity.isIdentity && CGSize(width: 2, height: 3).applying(scale) == CGSize(width: 400, height: 300))
        var transform = scale
        let path = CGPath(closedPolygons: [[CGPoint(x: 0.5, y: 0.5), CGPoint(x: 1, y: 1)]]).copy(using: &transform)
        #expect(path?.boundingBox == CGRect(x: 100, y: 50, width: 100, height: 50))
    }
}
