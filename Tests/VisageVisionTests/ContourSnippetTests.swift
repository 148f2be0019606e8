import Foundation
import Testing
import Visage
import VisageVision

/// The contour snippets give what Visage's own `DetectContoursRequest` gives on the same image.
struct ContourSnippetTests {
    /// The sweep written against Visage's own API: the same settings, simplification and de-duplication.
    static func nativeArt(_ image: Image, artist: ContourArtist) async throws -> [[CGPoint]] {
        var kept: [(box: Visage.NormalizedRect, points: [CGPoint])] = []
        for pivot in artist.pivotStride {
            for adjustment in artist.adjustStride {
                var request = Visage.DetectContoursRequest()
                request.contrastPivot = Float(pivot)
                request.contrastAdjustment = Float(adjustment)
                request.maximumImageDimension = 256
                for contour in try await request.perform(on: image).contours where contour.pointCount >= artist.minimumPointCount {
                    let simplified = try contour.polygonApproximation(epsilon: artist.epsilon)
                    let box = simplified.boundingBox
                    if !kept.contains(where: { $0.box.intersectionOverUnion(box) > Double(artist.iouThreshold) }) {
                        kept.append((box, simplified.normalizedPoints.map { CGPoint(x: $0.x, y: $0.y) }))
                    }
                }
            }
        }
        return kept.map(\.points)
    }

    @Test func contourArtSweepMatchesVisage() async throws {
        let url = SnippetFixtures.sample("coins.png")
        let artist = ContourArtist()
        let cgImage = try #require(UIImage(contentsOfFile: url.path)?.cgImage)
        let paths = try artist.paths(for: cgImage)
        let native = try await Self.nativeArt(try Image(contentsOf: url), artist: artist)
        #expect(paths.count > 5)
        #expect(paths.count == native.count)
        for (path, points) in zip(paths, native) {
            var walked: [CGPoint] = []
            path.applyWithBlock { element in
                if element.pointee.type != .closeSubpath { walked.append(element.pointee.points[0]) }
            }
            #expect(walked == points)
            #expect(vertexCount(of: path) == (points.count, 1))
        }
    }

    @Test func hierarchyAndMeasuresMatchVisage() async throws {
        let url = SnippetFixtures.sample("coins.png")
        let summary = try #require(try summarizeContours(at: url))
        var request = Visage.DetectContoursRequest()
        request.contrastAdjustment = 1.5
        request.contrastPivot = nil
        request.maximumImageDimension = 300
        let native = try await request.perform(on: Image(contentsOf: url))
        #expect(summary.contourCount == native.contourCount && summary.topLevelCount == native.topLevelContourCount)
        #expect(summary.firstChildPath == native.topLevelContours.first { $0.childContourCount > 0 }?.childContours.first?.indexPath)
        let largest = try #require(native.topLevelContours.max { $0.area < $1.area })
        #expect(abs(summary.largestArea - largest.area) < 1e-12)
        // The circle encloses every point of the largest outline (x scaled by the aspect ratio) and
        // touches at least one.
        let circle = try #require(summary.largestCircle)
        let aspect = Double(largest.aspectRatio)
        let distances = largest.normalizedPoints.map {
            VNPoint(x: $0.x * aspect, y: $0.y).distance(circle.center)
        }
        #expect(distances.allSatisfy { $0 <= circle.radius + 1e-9 })
        #expect(abs(distances.max()! - circle.radius) < 1e-9)
        let all = native.contours.flatMap(\.normalizedPoints)
        #expect(abs(Double(summary.pathBounds.minX) - all.map(\.x).min()!) < 1e-12)
        #expect(abs(Double(summary.pathBounds.maxY) - all.map(\.y).max()!) < 1e-12)
    }

    @Test func contourAccessorsAndErrors() async throws {
        let request = VNDetectContoursRequest()
        try VNImageRequestHandler(url: SnippetFixtures.sample("horse.png")).perform([request])
        let observation = try #require(request.results?.first)
        #expect(observation.contourCount > 0)
        let first = try observation.contour(at: IndexPath(index: 0))
        #expect(first.indexPath == IndexPath(index: 0))
        #expect(first.normalizedPoints.count == first.pointCount)
        #expect(try observation.contour(at: 0).normalizedPoints == first.normalizedPoints)
        #expect(SnippetFixtures.visionErrorCode { _ = try observation.contour(at: observation.contourCount) } == .outOfBoundsError)
        #expect(SnippetFixtures.visionErrorCode { _ = try observation.contour(at: IndexPath(indexes: [0, 99_999])) } == .outOfBoundsError)
        #expect(SnippetFixtures.visionErrorCode { _ = try first.polygonApproximation(epsilon: -1) } == .invalidOption)
        let simplified = try first.polygonApproximation(epsilon: 0.01)
        #expect(simplified.pointCount < first.pointCount && simplified.aspectRatio == first.aspectRatio)

        // Out-of-range knobs fail the request with Vision's code for a bad option.
        let bad = VNDetectContoursRequest()
        bad.maximumImageDimension = 10
        do {
            try VNImageRequestHandler(url: SnippetFixtures.sample("horse.png")).perform([bad])
            Issue.record("a maximumImageDimension of 10 was accepted")
        } catch VNError.invalidOption {
            #expect(bad.results == nil)
        }
    }
}
