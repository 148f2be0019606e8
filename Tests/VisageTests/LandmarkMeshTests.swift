import Foundation
import Testing
import Visage

/// The mesh stage against MediaPipe FaceLandmarker 0.10.21: the region cut from a detection, the warp
/// into the model's input, and the projection of the model's output back onto the picture.
struct LandmarkMeshTests {
    @Test(arguments: LandmarkFixtures.names)
    func regionFromDetectionMatchesMediaPipe(name: String) throws {
        let photo = LandmarkFixtures.photo(name)
        let region = try photo.region
        let (w, h) = (Double(photo.width), Double(photo.height))
        #expect(abs(region.centerX - photo.roi.xCenter * w) < 1e-6)
        #expect(abs(region.centerY - photo.roi.yCenter * h) < 1e-6)
        #expect(abs(region.side - photo.roi.width * w) < 1e-6)
        #expect(abs(region.side - photo.roi.height * h) < 1e-6)
        #expect(abs(region.rotation - photo.roi.rotation) < 1e-9)
    }

    @Test func regionFromADetectorDetectionEqualsTheRegionFromItsBoxAndEyes() throws {
        let photo = LandmarkFixtures.photo("astronaut-rolled.jpg")
        let box = photo.detection.box.map(Float.init)
        let detection = Detection(
            xMin: box[0], yMin: box[1], width: box[2], height: box[3],
            keypoints: photo.detection.keypoints.map { SIMD2(Float($0[0]), Float($0[1])) }, score: Float(photo.detection.score))
        let region = try MeshRegion(detection: detection, imageWidth: photo.width, imageHeight: photo.height)
        let reference = try photo.region
        #expect(abs(region.centerX - reference.centerX) < 1e-3 && abs(region.side - reference.side) < 1e-3)
        #expect(abs(region.rotation - reference.rotation) < 1e-5)
        let eyeless = Detection(xMin: 0, yMin: 0, width: 0.1, height: 0.1, keypoints: [], score: 1)
        #expect(throws: LandmarkError.degenerateRegion(reason: "detection has 0 keypoints; the eyes are needed")) {
            try MeshRegion(detection: eyeless, imageWidth: 640, imageHeight: 480)
        }
    }

    @Test func regionFromVisionCoordinatesEqualsTheRegionFromTopLeftOnes() throws {
        let photo = LandmarkFixtures.photo("astronaut-rolled.jpg")
        let box = photo.detection.box, eyes = photo.detection.keypoints
        let region = try MeshRegion(
            boundingBox: NormalizedRect(x: box[0], y: 1 - box[1] - box[3], width: box[2], height: box[3]),
            rightEye: NormalizedPoint(x: eyes[0][0], y: 1 - eyes[0][1]), leftEye: NormalizedPoint(x: eyes[1][0], y: 1 - eyes[1][1]),
            imageWidth: photo.width, imageHeight: photo.height)
        let reference = try photo.region
        #expect(abs(region.centerX - reference.centerX) < 1e-9 && abs(region.centerY - reference.centerY) < 1e-9)
        #expect(abs(region.side - reference.side) < 1e-9 && abs(region.rotation - reference.rotation) < 1e-12)
        let upright = try MeshRegion(boundingBox: NormalizedRect(x: 0.1, y: 0.2, width: 0.3, height: 0.2), imageWidth: 640, imageHeight: 480)
        #expect(upright.rotation == 0 && abs(upright.centerY - 480 * 0.7) < 1e-9 && abs(upright.side - 1.5 * 192) < 1e-9)
    }

    @Test(arguments: LandmarkFixtures.names)
    func projectedMeshMatchesMediaPipeWithinHalfAPixel(name: String) throws {
        let photo = LandmarkFixtures.photo(name)
        let mesh = try FaceMesh(landmarks: photo.meshOutput, presenceLogit: photo.presenceLogit, region: try photo.region)
        let reference = photo.mesh
        #expect(mesh.points.count == FaceMesh.pointCount)
        #expect(mesh.isFacePresent)
        var worst = 0.0, worstDepth: Float = 0
        for index in 0..<FaceMesh.pointCount {
            let d = mesh.pixel(index) - reference.pixel(index)
            worst = max(worst, (d * d).sum().squareRoot())
            worstDepth = max(worstDepth, abs(mesh.points[index].z - reference.points[index].z))
        }
        #expect(worst < 0.5, "\(name): worst point is \(worst) px from MediaPipe's")
        // z is on the scale of x: 0.5 px at 640 px wide.
        #expect(worstDepth < 0.5 / 640, "\(name): worst depth differs by \(worstDepth)")
    }

    @Test(arguments: LandmarkFixtures.names.filter { LandmarkFixtures.photo($0).meshInput != nil })
    func warpReproducesMediaPipesMeshInput(name: String) throws {
        let photo = LandmarkFixtures.photo(name)
        let image = try Image(contentsOf: LandmarkFixtures.url(photo.image))
        let region = try photo.region
        let size = MeshRegion.tensorSize
        var tensor = [Float](repeating: 0, count: size * size * 3)
        tensor.withUnsafeMutableBufferPointer {
            image.warpAffineFixedPoint(
                into: $0, width: size, height: size,
                transform: region.warpTransform(rawWidth: image.width, rawHeight: image.height),
                valueRange: 0...1, border: .replicate)
        }
        let reference = try Data(contentsOf: LandmarkFixtures.url(photo.meshInput!))
        #expect(reference.count == tensor.count)
        var total = 0.0, worst: Float = 0
        for (value, byte) in zip(tensor, reference) {
            let difference = abs(value * 255 - Float(byte))
            total += Double(difference)
            worst = max(worst, difference)
        }
        // The same fixed-point warp as OpenCV's (with the exact warp rounded to levels this allowed a mean of
        // 0.75 levels and 8 at worst): about 25 of the 196 608 values differ, by one level, where the region's
        // Double arithmetic and the fixture's Float one round a point to another 1/32 of a pixel.
        #expect(total / Double(tensor.count) < 0.001, "\(name): mean difference \(total / Double(tensor.count)) levels")
        #expect(worst <= 1.001, "\(name): worst difference \(worst) levels")
    }

    @Test func trackingRegionFollowsTheEyeCornersAndHoldsTheFace() throws {
        let upright = try MeshRegion(tracking: LandmarkFixtures.photo("astronaut.jpg").mesh)
        let rolledMesh = LandmarkFixtures.photo("astronaut-rolled.jpg").mesh
        let rolled = try MeshRegion(tracking: rolledMesh)
        // The picture was turned 30° counter-clockwise; MediaPipe's rotation is clockwise-positive.
        let turn = (upright.rotation - rolled.rotation) * 180 / .pi
        #expect(abs(turn - 30) < 1, "tracking regions differ by \(turn)°")
        // Every landmark lies inside the turned square.
        for index in 0..<FaceMesh.pointCount {
            let p = rolledMesh.pixel(index) - SIMD2(rolled.centerX, rolled.centerY)
            let (s, c) = (sin(-rolled.rotation), cos(-rolled.rotation))
            let local = SIMD2(c * p.x - s * p.y, s * p.x + c * p.y)
            #expect(abs(local.x) < rolled.side / 2 && abs(local.y) < rolled.side / 2)
        }
        // A mesh without irises still tracks; one that stops before the left eye's outer corner cannot.
        var surface = rolledMesh
        surface.points.removeLast(FaceMesh.pointCount - FaceMesh.surfacePointCount)
        #expect(try MeshRegion(tracking: surface).rotation == rolled.rotation)
        surface.points.removeLast(FaceMesh.surfacePointCount - 263)
        #expect(throws: LandmarkError.landmarkCount(263, expected: 264)) { try MeshRegion(tracking: surface) }
    }

    @Test func regionCornersMapToTensorCorners() throws {
        let region = try LandmarkFixtures.photo("astronaut-rolled.jpg").region
        let transform = region.warpTransform(rawWidth: region.imageWidth, rawHeight: region.imageHeight)
        for (u, v) in [(0.0, 0.0), (256.0, 0.0), (0.0, 256.0), (128.0, 128.0)] {
            let expected = region.uprightPoint(tensorX: u, tensorY: v)
            let mapped = transform.apply(x: u, y: v)
            #expect(abs(mapped.x - expected.x) < 1e-9 && abs(mapped.y - expected.y) < 1e-9)
        }
        let centre = region.uprightPoint(tensorX: 128, tensorY: 128)
        #expect(abs(centre.x - region.centerX) < 1e-9 && abs(centre.y - region.centerY) < 1e-9)
    }

    @Test func orientationIsFoldedIntoTheWarp() throws {
        // A picture stored turned (EXIF 6: rotate 90° clockwise to view) samples the same upright pixels.
        let region = try LandmarkFixtures.photo("astronaut.jpg").region
        let upright = region.warpTransform(rawWidth: 640, rawHeight: 480)
        let stored = region.warpTransform(rawWidth: 480, rawHeight: 640, orientation: .right)
        for (u, v) in [(0.0, 0.0), (255.0, 0.0), (17.0, 200.0)] {
            let p = upright.apply(x: u, y: v), q = stored.apply(x: u, y: v)
            let back = ImageOrientation.right.uprightUnitPoint(fromRaw: (q.x + 0.5) / 480, (q.y + 0.5) / 640)
            #expect(abs(back.u * 640 - 0.5 - p.x) < 1e-6 && abs(back.v * 480 - 0.5 - p.y) < 1e-6)
        }
    }

    @Test func badOutputsAreRejected() throws {
        let photo = LandmarkFixtures.photo("astronaut.jpg")
        let region = try photo.region
        #expect(throws: LandmarkError.outputSize(name: "landmarks", count: 1404, expected: 1434)) {
            try FaceMesh(landmarks: photo.meshOutput.prefix(1404), presenceLogit: 0, region: region)
        }
        var poisoned = photo.meshOutput
        poisoned[10] = .nan
        #expect(throws: LandmarkError.nonFiniteOutput(name: "landmarks", index: 9)) {
            try FaceMesh(landmarks: poisoned, presenceLogit: 0, region: region)
        }
        #expect(throws: LandmarkError.nonFiniteOutput(name: "presence", index: 0)) {
            try FaceMesh(landmarks: photo.meshOutput, presenceLogit: .infinity, region: region)
        }
        let absent = try FaceMesh(landmarks: photo.meshOutput, presenceLogit: -3, region: region)
        #expect(!absent.isFacePresent)
    }

    @Test(arguments: [
        (0.0, 0.0, 0.0, 10.0, "face box is 0.0×10.0 pixels; both sides must be positive"),
        (0.0, 0.0, -5.0, 10.0, "face box is -5.0×10.0 pixels; both sides must be positive"),
        (Double.nan, 0.0, 10.0, 10.0, "a coordinate is not finite"),
        (0.0, 0.0, 1e9, 10.0, "face box side 1000000000.0 is far larger than the 640×480 image"),
    ])
    func degenerateBoxesThrow(x: Double, y: Double, width: Double, height: Double, reason: String) {
        #expect(throws: LandmarkError.degenerateRegion(reason: reason)) {
            try MeshRegion(box: (x, y, width, height), start: .zero, end: SIMD2(1, 0), imageWidth: 640, imageHeight: 480)
        }
    }

    @Test func emptyImageThrows() {
        #expect(throws: LandmarkError.degenerateRegion(reason: "image is 0×480 pixels")) {
            try MeshRegion(box: (0, 0, 10, 10), start: .zero, end: SIMD2(1, 0), imageWidth: 0, imageHeight: 480)
        }
    }
}
