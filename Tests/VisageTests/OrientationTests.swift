import Foundation
import Testing
import Visage

/// One photo stored in all eight EXIF orientations must give the same faces in the upright picture.
@Suite struct OrientationTests {
    static func upright() async throws -> [FaceObservation] {
        try await DetectFaceRectanglesRequest().perform(on: DetectorFixtures.url("oriented-1.jpg"))
    }

    static func expectSame(_ faces: [FaceObservation], _ reference: [FaceObservation], tolerance: Double, rollDegrees: Double) {
        #expect(faces.count == reference.count)
        for (face, expected) in zip(faces, reference) {
            let (a, b) = (face.boundingBox, expected.boundingBox)
            #expect(abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance, "\(a) vs \(b)")
            #expect(abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance, "\(a) vs \(b)")
            for keypoint in FaceKeypoint.allCases {
                let (p, q) = (face.keypoints[keypoint], expected.keypoints[keypoint])
                #expect(abs(p.x - q.x) <= tolerance && abs(p.y - q.y) <= tolerance, "\(keypoint) \(p) vs \(q)")
            }
            #expect(abs(face.roll.converted(to: .degrees).value - expected.roll.converted(to: .degrees).value) <= rollDegrees)
        }
    }

    /// JPEG files with the EXIF tag; each was compressed separately, hence the tolerances (the eyes are
    /// 27 pixels apart, so half a pixel of JPEG noise turns the eye line by a degree).
    @Test(arguments: ImageOrientation.allCases)
    func exifOrientedFilesGiveTheUprightFaces(_ orientation: ImageOrientation) async throws {
        let reference = try await Self.upright()
        try #require(reference.count == 1)
        let faces = try await DetectFaceRectanglesRequest().perform(on: DetectorFixtures.url("oriented-\(orientation.exifValue).jpg"))
        Self.expectSame(faces, reference, tolerance: 0.005, rollDegrees: 2)
    }

    /// The same pixels rearranged in memory: only floating-point rounding may differ.
    @Test(arguments: ImageOrientation.allCases)
    func storedPixelsInAnyOrientationGiveTheUprightFaces(_ orientation: ImageOrientation) async throws {
        let upright = try Image(contentsOf: DetectorFixtures.url("one-face.jpg")).converted(to: .rgb8)
        let reference = try await DetectFaceRectanglesRequest().perform(on: upright)
        try #require(reference.count == 1)
        // Orientations 5–8 store the picture with width and height exchanged.
        let (rawWidth, rawHeight) = orientation.swapsDimensions ? (upright.height, upright.width) : (upright.width, upright.height)
        let source = upright.packedPixels
        var raw = [UInt8](repeating: 0, count: rawWidth * rawHeight * 3)
        for y in 0..<rawHeight {
            for x in 0..<rawWidth {
                let unit = orientation.uprightUnitPoint(fromRaw: (Double(x) + 0.5) / Double(rawWidth), (Double(y) + 0.5) / Double(rawHeight))
                let ux = Int(unit.u * Double(upright.width)), uy = Int(unit.v * Double(upright.height))
                for c in 0..<3 { raw[(y * rawWidth + x) * 3 + c] = source[(uy * upright.width + ux) * 3 + c] }
            }
        }
        let stored = try Image(width: rawWidth, height: rawHeight, pixelFormat: .rgb8, pixels: raw, orientation: orientation)
        let faces = try await DetectFaceRectanglesRequest().perform(on: stored)
        Self.expectSame(faces, reference, tolerance: 1e-4, rollDegrees: 0.01)
        // An explicit orientation overrides the image's own.
        let untagged = try Image(width: rawWidth, height: rawHeight, pixelFormat: .rgb8, pixels: raw)
        Self.expectSame(try await DetectFaceRectanglesRequest().perform(on: untagged, orientation: orientation), reference, tolerance: 1e-4, rollDegrees: 0.01)
    }
}
