import Foundation
import Testing
import Visage
import VisageVision

/// The iOS 18 snippets against Visage's own API. A file that imports both modules writes the names both
/// declare with their module: `Visage.NormalizedRect` (Double coordinates) or `VisageVision.NormalizedRect`
/// (CGFloat, Apple's). The snippets themselves import only VisageVision and need no prefix.
struct SwiftAPISnippetTests {
    @Test func landmarkOverlaysMatchVisage() async throws {
        let url = SnippetFixtures.sample("astronaut.png")
        let overlays = try await landmarkOverlays(for: try #require(CIImage(contentsOf: url)))
        let image = try Image(contentsOf: url)
        let native = try await Visage.DetectFaceCaptureQualityRequest().perform(on: image)
        try #require(overlays.count == 1 && native.count == 1)
        let face = native[0]
        let landmarks = try #require(face.landmarks)
        #expect(SnippetFixtures.worstDifference(
            [overlays[0].faceRect], [face.boundingBox.toImageCoordinates(image.size, origin: .upperLeft)]) < 1e-9)
        #expect(SnippetFixtures.worstDifference(
            overlays[0].leftEye, landmarks.leftEye.pointsInImage(imageSize: image.size, origin: .upperLeft)) < 1e-9)
        let lips = landmarks.outerLips.points
        let mouth = Visage.NormalizedPoint(
            x: face.boundingBox.minX + lips.map(\.x).reduce(0, +) / Double(lips.count) * face.boundingBox.width,
            y: face.boundingBox.minY + lips.map(\.y).reduce(0, +) / Double(lips.count) * face.boundingBox.height)
        #expect(SnippetFixtures.worstDifference([overlays[0].mouthCenter], [CGPoint(x: mouth.x, y: mouth.y)]) < 1e-9)
        // The snippet rates the faces it passes in, and given faces are refined (MeshRefinement): so does the reference.
        var rating = Visage.DetectFaceCaptureQualityRequest()
        rating.inputFaceObservations = try await Visage.DetectFaceLandmarksRequest().perform(on: image)
        let rated = try await rating.perform(on: image)
        #expect(overlays[0].quality == rated.first?.captureQuality)
    }

    @Test func oneHandlerTwoRequests() async throws {
        let url = SnippetFixtures.sample("coins.png")
        let result = try await facesAndOutlines(in: url)
        let image = try Image(contentsOf: url)
        var contours = Visage.DetectContoursRequest()
        contours.contrastPivot = nil
        contours.maximumImageDimension = 256
        let observation = try await contours.perform(on: image)
        let faces = try await Visage.DetectFaceRectanglesRequest().perform(on: image)
        #expect(result.faces == faces.map { CGRect(x: $0.boundingBox.minX, y: $0.boundingBox.minY, width: $0.boundingBox.width, height: $0.boundingBox.height) })
        #expect(result.outlines == observation.topLevelContourCount)
        #expect(result.firstChild == (try? observation.contour(at: IndexPath(indexes: [0, 0])))?.indexPath)
    }

    @Test func normalizedGeometryUsesCGFloat() {
        let rect = VisageVision.NormalizedRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25)
        let size = CGSize(width: 200, height: 100)
        #expect(rect.cgRect == CGRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25))
        #expect(rect.toImageCoordinates(size) == CGRect(x: 50, y: 50, width: 100, height: 25))
        #expect(rect.toImageCoordinates(size, origin: .upperLeft) == CGRect(x: 50, y: 25, width: 100, height: 25))
        #expect(VisageVision.NormalizedRect(imageRect: CGRect(x: 50, y: 50, width: 100, height: 25), in: size) == rect)
        let point = VisageVision.NormalizedPoint(x: 0.5, y: 0.5)
        #expect(point.toImageCoordinates(from: rect, imageSize: size) == CGPoint(x: 100, y: 62.5))
        #expect(VisageVision.NormalizedPoint(imagePoint: CGPoint(x: 100, y: 62.5), in: size, normalizedTo: rect) == point)
        // Visage's own types stay reachable by their module name, with Double coordinates.
        let native = Visage.NormalizedRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25)
        #expect(native.toImageCoordinates(size) == rect.toImageCoordinates(size))
        let x: CGFloat = rect.origin.x + point.x * rect.width   // Apple's arithmetic compiles as written
        #expect(x == 0.5)
    }
}
