import Foundation
import Testing
import VisageContours
import VisageGeometry
import VisageImage

@Suite struct ContourArtTests {
    private static func sample(_ name: String) throws -> Image {
        // Tests/VisageContoursTests → the package root's Samples folder.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try Image(contentsOf: root.appendingPathComponent("Samples/\(name)"))
    }

    @Test func sweepCoversBothRangesEndsIncluded() throws {
        let art = ContourArt(pivotRange: 0.2 ... 0.6, adjustmentRange: 1 ... 3, steps: 3)
        let requests = try art.requests()
        #expect(requests.count == 9)
        #expect(Set(requests.compactMap(\.contrastPivot)).sorted() == [0.2, 0.4, 0.6])
        #expect(Set(requests.map(\.contrastAdjustment)).sorted() == [1, 2, 3])
        #expect(try ContourArt(steps: 1).requests().count == 1)
    }

    @Test func badSettingsAreRejected() {
        #expect(throws: ContoursError.invalidParameter(name: "steps", value: "0", rule: "must be within 1...32")) {
            try ContourArt(steps: 0).requests()
        }
        #expect(throws: ContoursError.invalidParameter(
            name: "iouThreshold", value: "0.0", rule: "must be greater than 0 and at most 1")) {
            try ContourArt(iouThreshold: 0).requests()
        }
        #expect(throws: ContoursError.invalidParameter(name: "contrastAdjustment", value: "4.0", rule: "must be within 0...3")) {
            try ContourArt(adjustmentRange: 1 ... 4).requests()
        }
        #expect(throws: ContoursError.invalidParameter(
            name: "contrastPivot", value: "1.5", rule: "must be within 0...1, or nil for automatic")) {
            try ContourArt(pivotRange: 0.5 ... 1.5).requests()
        }
    }

    /// The sort-and-sweep de-duplication keeps exactly what the plain all-pairs greedy rule keeps.
    @Test(arguments: [0.5, 0.8, 0.95])
    func deduplicationEqualsAllPairs(threshold: Double) throws {
        let image = try Self.sample("coins.png")
        let art = ContourArt(steps: 3, epsilon: 0.002, maximumImageDimension: 128)
        var all: [Contour] = []
        for request in try art.requests() {
            all += try request.performSynchronously(on: image).contours.map { try $0.polygonApproximation(epsilon: 0.002) }
        }
        #expect(all.count > 100)
        var reference: [Contour] = []
        for contour in all {
            let copy = reference.contains { kept in
                func box(_ c: Contour) -> NormalizedRect {
                    let b = c.boundingBox
                    let (dx, dy) = (0.5 / 128, 0.5 / Double(Int((303.0 * 128 / 384).rounded())))
                    return NormalizedRect(x: b.minX - dx, y: b.minY - dy, width: b.width + 2 * dx, height: b.height + 2 * dy)
                }
                return box(kept).intersectionOverUnion(box(contour)) >= threshold
                    && kept.intersectionOverUnion(with: contour) >= threshold
            }
            if !copy { reference.append(contour) }
        }
        let unique = ContourDeduplication.unique(all, threshold: threshold)
        #expect(unique.count < all.count)
        #expect(unique.map(\.normalizedPoints) == reference.map(\.normalizedPoints))
    }

    /// A 60×40 box (perimeter through the pixel centres 196 px, 0.98 of the 200-px longer side) and a
    /// 2×2 speck (4 px, 0.02): a minimum length of 0.05 drops the speck only; 0 keeps both.
    @Test func contoursShorterThanTheMinimumLengthAreDropped() throws {
        let image = try BinaryMask.rectangles(width: 200, height: 100, [(20, 20, 60, 40), (150, 50, 2, 2)]).grayImage()
        let all = try ContourArt(steps: 1, minimumLength: 0).contours(for: image)
        let kept = try ContourArt(steps: 1, minimumLength: 0.05).contours(for: image)
        #expect(all.count == 2)
        #expect(kept.count == 1)
        #expect((kept.first?.boundingBox.width ?? 0) > 0.25, "the box, not the speck")
        #expect(throws: ContoursError.invalidParameter(name: "minimumLength", value: "-1.0", rule: "must be a finite number ≥ 0")) {
            try ContourArt(minimumLength: -1).requests()
        }
    }

    @Test func artOfASampleMergesTheSweep() throws {
        let image = try Self.sample("horse.png")
        let art = ContourArt(steps: 4)
        let strokes = try art.contours(for: image)
        var total = 0
        for request in try art.requests() { total += try request.performSynchronously(on: image).contourCount }
        #expect(!strokes.isEmpty && strokes.count < total)
    }
}

@Suite struct ContourRendererTests {
    private let mask = BinaryMask.rectangles(width: 40, height: 30, [(5, 5, 20, 12), (10, 8, 4, 4), (30, 20, 1, 1)])

    @Test func svgHasOneSubpathPerContourInPixels() throws {
        let contours = try DetectContoursRequest().performSynchronously(on: try mask.grayImage()).contours
        #expect(contours.count == 3)
        let svg = try ContourRenderer.svg(contours, width: 80, height: 60)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"80\" height=\"60\""))
        #expect(svg.filter { $0 == "M" }.count == 3)
        // The first contour starts at pixel (5, 5): its centre, scaled ×2 onto the canvas; then moves
        // relative to it on a 0.01-px grid (80 px wide).
        #expect(svg.contains("d=\"M11 11l0 2"))
        let over = try ContourRenderer.svg(contours, width: 40, height: 30, background: try mask.grayImage())
        #expect(over.contains("href=\"data:image/png;base64,"))
    }

    @Test func pngDrawsTheOutlinesOnly() throws {
        let image = try mask.grayImage()
        let contours = try DetectContoursRequest().performSynchronously(on: image).contours
        let blank = try Image(data: try ContourRenderer.png(contours, width: 40, height: 30)).converted(to: .rgba8)
        #expect(blank.width == 40 && blank.height == 30)
        for contour in contours {
            for point in contour.normalizedPoints {
                let x = Int(point.x * 40), y = Int((1 - point.y) * 30)
                #expect(blank.pixel(x: x, y: y) == [0, 0, 0, 255])
            }
        }
        #expect(blank.pixel(x: 15, y: 12) == [255, 255, 255, 255])   // inside the shape, off its outline
        #expect(blank.pixel(x: 0, y: 0) == [255, 255, 255, 255])
        let over = try Image(data: try ContourRenderer.png(contours, over: image)).converted(to: .rgba8)
        #expect(over.pixel(x: 5, y: 5) == [255, 32, 32, 255])
        #expect(over.pixel(x: 0, y: 0) == [255, 255, 255, 255])
        #expect(over.pixel(x: 7, y: 7) == [0, 0, 0, 255])
        #expect(throws: ContoursError.invalidParameter(
            name: "canvas size", value: "0×10", rule: "must be positive and at most 100 megapixels")) {
            try ContourRenderer.png(contours, width: 0, height: 10)
        }
    }
}
