import Foundation
import Testing
import Visage
import VisageVision

/// `VNTrackObjectRequest` follows the face Visage's own `SequenceRequestHandler` tracks.
struct TrackingSnippetTests {
    /// The sample moved right by `dx` and down by `dy` pixels, the uncovered part white, same size.
    static func shifted(_ image: Image, dx: Int, dy: Int) throws -> Image {
        let rgb = image.converted(to: .rgb8)
        let source = rgb.packedPixels
        var pixels = [UInt8](repeating: 255, count: source.count)
        for y in 0 ..< rgb.height - dy {
            let from = y * rgb.width * 3, to = ((y + dy) * rgb.width + dx) * 3
            pixels[to ..< to + (rgb.width - dx) * 3] = source[from ..< from + (rgb.width - dx) * 3]
        }
        return try Image(width: rgb.width, height: rgb.height, pixelFormat: .rgb8, pixels: pixels)
    }

    @Test func followsTheFaceAsVisageTracksIt() throws {
        let image = try Image(contentsOf: SnippetFixtures.sample("astronaut.png"))
        let frames = [image, try Self.shifted(image, dx: 12, dy: 8), try Self.shifted(image, dx: 24, dy: 16)]
        let follower = FaceFollower()
        let start = try #require(try follower.start(with: CGImage(visageImage: frames[0])))
        let first = try #require(try follower.track(CGImage(visageImage: frames[1])))
        let second = try #require(try follower.track(CGImage(visageImage: frames[2])))

        // Visage's tracker on the same frames: the mesh boxes the request follows.
        let native = try Visage.SequenceRequestHandler(options: .init(maximumFaces: 4))
        let size = image.size
        let boxes = try [frames[1], frames[2]].enumerated().map { index, frame in
            let face = try #require(try native.perform(on: frame, time: Double(index) / 30).first)
            return CGRect(x: face.frame.minX / size.width, y: 1 - face.frame.maxY / size.height,
                          width: face.frame.width / size.width, height: face.frame.height / size.height)
        }
        #expect(abs(first.midX - boxes[0].midX) < 1e-9 && abs(first.midY - boxes[0].midY) < 1e-9)
        #expect(abs(first.width - start.width) < 1e-9 && abs(first.height - start.height) < 1e-9)
        let scale = boxes[1].width / boxes[0].width
        #expect(abs(second.midX - (boxes[1].midX + (first.midX - boxes[0].midX) * scale)) < 1e-9)
        #expect(abs(second.width - first.width * scale) < 1e-9)
        // And the face did move by the shift: 12 px right and 8 px down of 512, within a pixel.
        #expect(abs((second.midX - first.midX) * 512 - 12) < 1 && abs((second.midY - first.midY) * 512 + 8) < 1)
    }

    @Test func trackingNeedsASequenceHandler() throws {
        let request = VNTrackObjectRequest(detectedObjectObservation: VNDetectedObjectObservation(
            boundingBox: CGRect(x: 0.3, y: 0.5, width: 0.2, height: 0.2)))
        let code = SnippetFixtures.visionErrorCode {
            try VNImageRequestHandler(url: SnippetFixtures.sample("coins.png")).perform([request])
        }
        #expect(code == .invalidOperation && request.results == nil)
    }

    /// A box over no face is lost at once: confidence 0, the box where it was.
    @Test func aBoxWithoutAFaceIsLost() throws {
        let box = CGRect(x: 0.05, y: 0.05, width: 0.1, height: 0.1)
        let request = VNTrackObjectRequest(detectedObjectObservation: VNDetectedObjectObservation(boundingBox: box))
        try VNSequenceRequestHandler().perform([request], onImageURL: SnippetFixtures.sample("astronaut.png"))
        let result = try #require(request.results?.first)
        #expect(result.confidence == 0 && result.boundingBox == box && result.uuid == request.inputObservation.uuid)
    }
}
