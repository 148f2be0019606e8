import Foundation
import Testing
import Visage

@Suite struct DetectionWindowTests {
    /// The warp map, composed with the orientation, must land on the stored pixel that shows the same
    /// upright position: checked against VisageGeometry's own orientation mapping.
    @Test(arguments: ImageOrientation.allCases)
    func warpTransformFollowsTheOrientation(_ orientation: ImageOrientation) {
        let (rawWidth, rawHeight) = (40, 30)
        let upright = orientation.uprightSize(rawWidth: rawWidth, rawHeight: rawHeight)
        let window = DetectionWindow.letterbox(width: upright.width, height: upright.height)
        let transform = window.warpTransform(tensorSize: 16, rawWidth: rawWidth, rawHeight: rawHeight, orientation: orientation)
        for (x, y) in [(0.0, 0.0), (15.0, 3.0), (7.0, 12.0), (15.0, 15.0)] {
            let raw = transform.apply(x: x, y: y)
            // Back to the upright picture through the geometry module, in pixel-index coordinates.
            let unit = orientation.uprightUnitPoint(fromRaw: (raw.x + 0.5) / Double(rawWidth), (raw.y + 0.5) / Double(rawHeight))
            let uprightX = unit.u * Double(upright.width) - 0.5
            let uprightY = unit.v * Double(upright.height) - 0.5
            let scale = window.side / 16
            #expect(abs(uprightX - (window.originX + x * scale)) < 1e-9)
            #expect(abs(uprightY - (window.originY + y * scale)) < 1e-9)
        }
    }

    @Test func letterboxCentresTheLongerSide() {
        let wide = DetectionWindow.letterbox(width: 640, height: 480)
        #expect(wide.side == 640 && wide.originX == 0 && wide.originY == -80)
        let tall = DetectionWindow.letterbox(width: 300, height: 500)
        #expect(tall.side == 500 && tall.originX == -100 && tall.originY == 0)
    }

    @Test func projectionMapsTheWindowCornersToTheirPixels() {
        let window = DetectionWindow.letterbox(width: 640, height: 480)
        let corner = Detection(xMin: 0, yMin: 0, width: 1, height: 1, keypoints: [SIMD2(0.5, 0.5)], score: 1)
        let projected = window.project(corner)
        #expect(projected.xMin == 0 && projected.width == 1)
        #expect(abs(Double(projected.yMin) - -80.0 / 480) < 1e-7 && abs(Double(projected.height) - 640.0 / 480) < 1e-7)
        #expect(projected.keypoints == [SIMD2(0.5, 0.5)])
    }

    @Test func cutsOnlyAtInnerEdges() {
        // A tile in the top-left corner of a 1000×1000 picture: its left and top edges are the picture's.
        let tile = DetectionWindow(originX: 0, originY: 0, side: 400, imageWidth: 1000, imageHeight: 1000)
        func box(_ x: Float, _ y: Float, _ side: Float) -> Detection {
            Detection(xMin: x / 1000, yMin: y / 1000, width: side / 1000, height: side / 1000, keypoints: [], score: 1)
        }
        #expect(!tile.cuts(box(0, 0, 50)), "at the picture's own edge")
        #expect(!tile.cuts(box(200, 200, 50)), "well inside")
        #expect(tile.cuts(box(360, 100, 50)), "across the right edge, inside the picture")
        #expect(tile.cuts(box(100, 390, 50)), "across the bottom edge")
        let inner = DetectionWindow(originX: 300, originY: 300, side: 400, imageWidth: 1000, imageHeight: 1000)
        #expect(inner.cuts(box(295, 400, 50)) && inner.cuts(box(400, 301, 50)))
        #expect(!inner.cuts(box(400, 400, 50)))
    }

    /// The letterboxed input tensor Visage's warp builds, against the one MediaPipe's OpenCV path builds
    /// (8-bit bilinear with fixed-point weights): the short-range model's is the same warp, the full-range
    /// models' the exact one (``DetectorVariant/samplesAsOpenCV``).
    static let recordedInputs = DetectorFixtures.shared.photos.flatMap { photo in
        DetectorVariant.allCases.filter { photo.tensors($0).input != nil }.map { (photo.image, $0) }
    }

    @Test(arguments: recordedInputs)
    func inputTensorMatchesMediaPipe(photoName: String, variant: DetectorVariant) throws {
        let photo = DetectorFixtures.photo(photoName)
        let inputFile = try #require(photo.tensors(variant).input)
        let reference = try DetectorFixtures.bytes(inputFile).map { Float($0) / 127.5 - 1 }
        let image = try Image(contentsOf: DetectorFixtures.url(photo.image))
        let size = variant.inputSize
        let window = DetectionWindow.letterbox(width: photo.width, height: photo.height)
        var tensor = [Float](repeating: .nan, count: size * size * 3)
        let transform = window.warpTransform(tensorSize: size, rawWidth: image.width, rawHeight: image.height, orientation: image.orientation)
        tensor.withUnsafeMutableBufferPointer {
            if variant.samplesAsOpenCV {
                image.warpAffineFixedPoint(into: $0, width: size, height: size, transform: transform, valueRange: -1...1)
            } else {
                image.warpAffine(into: $0, width: size, height: size, transform: transform, valueRange: -1...1)
            }
        }
        let differences = zip(tensor, reference).map { abs($0 - $1) }
        let largest = differences.max() ?? .infinity
        let mean = differences.reduce(0, +) / Float(differences.count)
        // The short-range letterbox is OpenCV's own warp (up to a Float rounding of the level's value); the
        // full-range one is the exact bilinear warp, a step or two of 1/127.5 off here and there.
        let (largestLevels, meanLevels): (Float, Float) = variant.samplesAsOpenCV ? (0.001, 0.0001) : (2.5, 0.6)
        #expect(largest <= largestLevels / 127.5, "largest difference \(largest * 127.5) levels")
        #expect(mean <= meanLevels / 127.5, "mean difference \(mean * 127.5) levels")
    }
}
