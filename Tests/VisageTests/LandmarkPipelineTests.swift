import Foundation
import Testing
import Visage

/// The whole mesh stage on Visage's engine against MediaPipe FaceLandmarker 0.10.21: the networks on
/// MediaPipe's tensors, then photo + detection → mesh → blendshapes → pose.
@Suite(.serialized)
struct LandmarkPipelineTests {
    @Test(arguments: LandmarkFixtures.names.filter { LandmarkFixtures.photo($0).meshInput != nil })
    func meshNetworkMatchesLiteRT(name: String) throws {
        let analyzer = try FaceMeshAnalyzer()
        let photo = LandmarkFixtures.photo(name)
        // MediaPipe's own 256×256 input as a picture, cut by the identity region.
        let pixels = [UInt8](try Data(contentsOf: LandmarkFixtures.url(photo.meshInput!)))
        let input = try Image(width: 256, height: 256, pixelFormat: .rgb8, pixels: pixels)
        let identity = MeshRegion(centerX: 128, centerY: 128, side: 256, rotation: 0, imageWidth: 256, imageHeight: 256)
        let outputs = try analyzer.meshOutputs(input, region: identity)
        #expect(outputs.landmarks.count == photo.meshOutput.count)
        let worst = zip(outputs.landmarks, photo.meshOutput).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 0.05, "\(name): engine's mesh differs from LiteRT's by \(worst) input pixels")
        #expect(abs(outputs.presenceLogit - photo.presenceLogit) < 0.01)
    }

    @Test(arguments: LandmarkFixtures.names)
    func blendshapeNetworkMatchesMediaPipe(name: String) throws {
        let photo = LandmarkFixtures.photo(name)
        let blendshapes = try FaceMeshAnalyzer().blendshapes(for: photo.mesh)
        for shape in Blendshape.allCases {
            #expect(abs(blendshapes[shape] - photo.blendshapes[shape.description]!) < 0.01, "\(name): \(shape)")
        }
    }

    @Test(arguments: LandmarkFixtures.names)
    func photoToPoseMatchesFaceLandmarker(name: String) throws {
        let photo = LandmarkFixtures.photo(name)
        let image = try Image(contentsOf: LandmarkFixtures.url(photo.image))
        let face = try #require(try FaceMeshAnalyzer().analyze(image, region: photo.region))
        let reference = photo.mesh
        var worst = 0.0
        for index in 0..<FaceMesh.pointCount {
            let d = face.mesh.pixel(index) - reference.pixel(index)
            worst = max(worst, (d * d).sum().squareRoot())
        }
        #expect(worst < 0.5, "\(name): worst landmark \(worst) px from MediaPipe's")
        for shape in Blendshape.allCases {
            #expect(abs(face.blendshapes[shape] - photo.blendshapes[shape.description]!) < 0.01, "\(name): \(shape) \(face.blendshapes[shape]) vs \(photo.blendshapes[shape.description]!)")
        }
        let theirs = HeadPose(transform: photo.matrix)
        for (ours, mediapipe) in [(face.pose.roll, theirs.roll), (face.pose.yaw, theirs.yaw), (face.pose.pitch, theirs.pitch)] {
            #expect(abs(ours - mediapipe) * 180 / .pi < 2)
        }
    }

    @Test func storedOrientationGivesTheUprightResult() throws {
        let analyzer = try FaceMeshAnalyzer()
        let photo = LandmarkFixtures.photo("astronaut.jpg")
        let upright = try Image(contentsOf: LandmarkFixtures.url(photo.image)).converted(to: .rgb8)
        // Store the picture turned a quarter, tagged with the EXIF orientation that turns it back.
        let (stored, tag) = try [ImageOrientation.left, .right].lazy.compactMap { turn -> (Image, ImageOrientation)? in
            let raw = upright.withOrientation(turn).applyingOrientation()
            let back: ImageOrientation = turn == .left ? .right : .left
            return raw.withOrientation(back).applyingOrientation().packedPixels == upright.packedPixels ? (raw, back) : nil
        }.first.map { $0 } ?? { throw LandmarkError.model(reason: "no quarter turn round-trips") }()
        #expect(stored.width == 480 && stored.height == 640)
        let face = try #require(try analyzer.analyze(stored.withOrientation(tag), region: photo.region))
        let reference = try #require(try analyzer.analyze(upright, region: photo.region))
        var worst = 0.0
        for index in 0..<FaceMesh.pointCount {
            let d = face.mesh.pixel(index) - reference.mesh.pixel(index)
            worst = max(worst, (d * d).sum().squareRoot())
        }
        #expect(worst < 0.01, "orientation moves landmarks by \(worst) px")
    }

    @Test func regionWithoutAFaceGivesNothingAndMismatchedRegionsThrow() throws {
        let analyzer = try FaceMeshAnalyzer()
        let image = try Image(contentsOf: LandmarkFixtures.url("astronaut.jpg"))
        // The top-right corner of the photo is plain wall.
        let wall = MeshRegion(centerX: 580, centerY: 60, side: 100, rotation: 0, imageWidth: 640, imageHeight: 480)
        #expect(try analyzer.analyze(image, region: wall) == nil)
        // A region entirely outside the picture sees only replicated edge pixels.
        let outside = MeshRegion(centerX: -400, centerY: 900, side: 120, rotation: 0.3, imageWidth: 640, imageHeight: 480)
        #expect(try analyzer.analyze(image, region: outside) == nil)
        let elsewhere = MeshRegion(centerX: 100, centerY: 100, side: 100, rotation: 0, imageWidth: 320, imageHeight: 240)
        #expect(throws: LandmarkError.degenerateRegion(reason: "region is for a 320×240 picture; the image is 640×480")) {
            try analyzer.analyze(image, region: elsewhere)
        }
    }
}
