import Foundation
import Testing
import VisageContours
import VisageGeometry
import VisageImage

@Suite struct DetectContoursRequestTests {
    /// The whole request on images drawn from the OpenCV fixtures finds OpenCV's contours:
    /// the same point sequences (normalized here) and the same nesting.
    @Test(arguments: try FindContoursCase.all().filter { $0.width >= 8 && $0.height >= 8 })
    func requestMatchesOpenCV(_ fixture: FindContoursCase) throws {
        let mask = fixture.mask
        let observation = try DetectContoursRequest().performSynchronously(on: try mask.grayImage())
        if mask.isUniform {
            #expect(observation.contourCount == 0)
            return
        }
        #expect(observation.contourCount == fixture.contours.count)
        let w = Double(fixture.width), h = Double(fixture.height)
        func pixels(_ contour: Contour) -> [Int] {
            contour.normalizedPoints.flatMap { [Int(($0.x * w - 0.5).rounded()), Int(((1 - $0.y) * h - 0.5).rounded())] }
        }
        // Map each of our contours to OpenCV's by its point sequence, then compare parents.
        var position: [[Int]: Int] = [:]
        for (index, points) in fixture.contours.enumerated() { position[points] = index }
        let contours = observation.contours
        var mapped: [Int] = []
        for contour in contours {
            let index = try #require(position[pixels(contour)], "\(contour) not in OpenCV's output")
            mapped.append(index)
        }
        #expect(Set(mapped).count == fixture.contours.count)
        for (flat, contour) in contours.enumerated() {
            let openCVParent = fixture.hierarchy[mapped[flat]][3]
            let children = contour.childContours.map { contours.firstIndex(of: $0)! }
            for child in children { #expect(fixture.hierarchy[mapped[child]][3] == mapped[flat]) }
            if contour.indexPath.count == 1 { #expect(openCVParent == -1) }
            #expect(try observation.contour(at: contour.indexPath) == contour)
            #expect(try observation.contour(at: flat) == contour)
        }
        #expect(observation.topLevelContourCount == fixture.hierarchy.filter { $0[3] == -1 }.count)
        #expect(observation.normalizedPath.subpaths == contours.map(\.normalizedPoints))
    }

    @Test(arguments: [PixelFormat.gray8, .rgb8, .rgba8, .bgra8], [UInt8(0), 255])
    func uniformImagesHaveNoContours(format: PixelFormat, value: UInt8) throws {
        let image = try Image(
            width: 37, height: 23, pixelFormat: format,
            pixels: [UInt8](repeating: value, count: 37 * 23 * format.bytesPerPixel))
        for darkOnLight in [true, false] {
            var request = DetectContoursRequest()
            request.detectsDarkOnLight = darkOnLight
            let observation = try request.performSynchronously(on: image)
            #expect(observation.contourCount == 0)
            #expect(observation.topLevelContours.isEmpty)
            #expect(observation.normalizedPath.isEmpty)
        }
    }

    @Test func oneByOneImageWorks() async throws {
        let image = try Image(width: 1, height: 1, pixelFormat: .gray8, pixels: [0])
        let observation = try await DetectContoursRequest().perform(on: image)
        #expect(observation.contourCount == 0)
        #expect(observation.aspectRatio == 1)
    }

    @Test func outOfRangeParametersAreRejected() throws {
        var request = DetectContoursRequest()
        request.contrastAdjustment = 3.5
        #expect(throws: ContoursError.invalidParameter(name: "contrastAdjustment", value: "3.5", rule: "must be within 0...3")) {
            try request.validate()
        }
        request.contrastAdjustment = .nan
        #expect(throws: ContoursError.invalidParameter(name: "contrastAdjustment", value: "nan", rule: "must be within 0...3")) {
            try request.validate()
        }
        request = DetectContoursRequest()
        request.contrastPivot = -0.1
        #expect(throws: ContoursError.invalidParameter(
            name: "contrastPivot", value: "-0.1", rule: "must be within 0...1, or nil for automatic")) {
            try request.validate()
        }
        request = DetectContoursRequest()
        request.maximumImageDimension = 63
        let error = ContoursError.invalidParameter(name: "maximumImageDimension", value: "63", rule: "must be at least 64")
        #expect(error.description == "invalid maximumImageDimension 63: must be at least 64")
        let image = try Image(width: 2, height: 2, pixelFormat: .gray8, pixels: [0, 255, 255, 255])
        #expect(throws: error) { try request.performSynchronously(on: image) }
    }

    @Test func indexErrors() throws {
        let mask = BinaryMask.rectangles(width: 20, height: 20, [(2, 2, 10, 10), (4, 4, 3, 3)])
        let observation = try DetectContoursRequest().performSynchronously(on: try mask.grayImage())
        #expect(observation.contourCount == 2)
        #expect(throws: ContoursError.indexOutOfRange(index: 2, count: 2)) { try observation.contour(at: 2) }
        #expect(throws: ContoursError.invalidIndexPath([0, 1])) { try observation.contour(at: [0, 1]) }
        #expect(throws: ContoursError.invalidIndexPath([])) { try observation.contour(at: IndexPath()) }
        let outer = try observation.contour(at: [0])
        #expect(outer.childContourCount == 1)
        #expect(try outer.childContour(at: 0).indexPath == [0, 0])
        #expect(throws: ContoursError.indexOutOfRange(index: -1, count: 1)) { try outer.childContour(at: -1) }
        #expect(throws: ContoursError.invalidParameter(name: "epsilon", value: "-1.0", rule: "must be a finite number ≥ 0")) {
            try outer.polygonApproximation(epsilon: -1)
        }
    }

    @Test func lightOnDarkInvertsTheMask() throws {
        let mask = BinaryMask.rectangles(width: 30, height: 20, [(3, 3, 10, 8), (20, 5, 4, 4)])
        let dark = try DetectContoursRequest().performSynchronously(on: try mask.grayImage())
        var request = DetectContoursRequest()
        request.detectsDarkOnLight = false
        let light = try request.performSynchronously(on: try mask.grayImage(foreground: 255, background: 0))
        #expect(dark.contours.map(\.normalizedPoints) == light.contours.map(\.normalizedPoints))
        #expect(dark.topLevelContourCount == 2)
    }

    /// Orientation is applied before tracing: results equal those on the upright pixels.
    @Test(arguments: ImageOrientation.allCases)
    func orientationGivesUprightContours(_ orientation: ImageOrientation) throws {
        let mask = BinaryMask.rectangles(width: 24, height: 16, [(1, 1, 9, 5), (3, 2, 2, 2), (15, 8, 6, 7)])
        let stored = try mask.grayImage(orientation: orientation)
        let observation = try DetectContoursRequest().performSynchronously(on: stored)
        let upright = try DetectContoursRequest().performSynchronously(on: stored.applyingOrientation())
        #expect(observation.contours.map(\.normalizedPoints) == upright.contours.map(\.normalizedPoints))
        let passed = try DetectContoursRequest().performSynchronously(on: try mask.grayImage(), orientation: orientation)
        #expect(passed.contours.map(\.normalizedPoints) == upright.contours.map(\.normalizedPoints))
        let expected: Float = orientation.swapsDimensions ? 16 / 24 : 24 / 16
        #expect(observation.aspectRatio == expected)
    }

    @Test func largeImagesAreDownscaledSmallOnesAreNot() throws {
        let mask = BinaryMask.rectangles(width: 300, height: 120, [(30, 20, 100, 60)])
        var request = DetectContoursRequest()
        request.maximumImageDimension = 150
        let observation = try request.performSynchronously(on: try mask.grayImage())
        let square = try observation.contour(at: 0)
        // 300 × 120 becomes 150 × 60; the rectangle spans pixels 15…64 by 10…39 there.
        let box = square.boundingBox
        #expect(isClose(box.minX, 15.5 / 150))
        #expect(isClose(box.maxX, 64.5 / 150))
        #expect(isClose(box.maxY, 1 - 10.5 / 60))
        #expect(isClose(box.minY, 1 - 39.5 / 60))
        request.maximumImageDimension = 4096
        let full = try request.performSynchronously(on: try mask.grayImage())
        #expect(try full.contour(at: 0).pointCount == 2 * (99 + 59))
    }

    /// With an automatic pivot the threshold lands on Otsu's level, between the two gray levels
    /// of a two-level image, for any adjustment that can reach it.
    @Test(arguments: [(UInt8(60), UInt8(200), Float(2)), (180, 220, 2), (70, 90, 3), (10, 40, 0.5), (200, 250, 0.6)])
    func automaticPivotSeparatesTwoLevels(dark: UInt8, light: UInt8, adjustment: Float) throws {
        let mask = BinaryMask.rectangles(width: 40, height: 40, [(5, 5, 20, 20), (10, 10, 4, 4)])
        let image = try mask.grayImage(foreground: dark, background: light)
        var request = DetectContoursRequest()
        request.contrastPivot = nil
        request.contrastAdjustment = adjustment
        let binarization = request.binarization(for: image)
        let threshold = binarization.pivot + (0.5 - binarization.pivot) / binarization.adjustment
        let (low, high): (Double, Double) = (Double(dark) / 255, Double(light) / 255)
        #expect(threshold > low)
        #expect(threshold < high)
        let automatic = try request.performSynchronously(on: image)
        #expect(automatic.contourCount == 2)
        #expect(BinaryMask(width: 40, height: 40, pixels: binarization.mask(of: image).pixels) == mask)
    }

    /// The fixed default pivot 0.5 sees two light levels both as background: no contours.
    @Test func fixedPivotIgnoresTheHistogram() throws {
        let mask = BinaryMask.rectangles(width: 40, height: 40, [(5, 5, 20, 20)])
        let fixed = try DetectContoursRequest().performSynchronously(on: try mask.grayImage(foreground: 180, background: 220))
        #expect(fixed.contourCount == 0)
    }

    /// Contrast around the pivot then mid-gray: the effective threshold is pivot + (0.5 − pivot) / adjustment.
    @Test(arguments: [(0.3, 2.0), (0.7, 0.5), (0.2, 3.0), (0.5, 1.0), (0.6, 0.0)])
    func contrastThreshold(pivot: Double, adjustment: Double) {
        let table = Binarization(pivot: pivot, adjustment: adjustment, detectsDarkOnLight: true).table
        for level in 0 ... 255 {
            let v = Double(level) / 255
            let expected = adjustment == 0 ? pivot < 0.5 : v < pivot + (0.5 - pivot) / adjustment
            if abs(v - (pivot + (0.5 - pivot) / max(adjustment, 1e-9))) > 1e-9 {
                #expect((table[level] != 0) == expected, "level \(level)")
            }
        }
    }
}
