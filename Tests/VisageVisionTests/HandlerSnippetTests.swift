import Foundation
import Testing
import Visage
import VisageVision

/// Handlers: the sequence handler's labels, orientations, regions of interest, cancellation, errors.
struct HandlerSnippetTests {
    @Test func sequenceHandlerAcrossFrames() async throws {
        let processor = FrameProcessor()
        processor.process(frame: SnippetFixtures.sample("astronaut.png"))
        processor.process(frame: SnippetFixtures.sample("coins.png"))
        processor.process(frame: SnippetFixtures.sample("missing.png"))
        processor.process(frame: SnippetFixtures.oriented(8))   // turned upright by its EXIF orientation
        let native = try await Visage.DetectFaceRectanglesRequest().perform(on: SnippetFixtures.sample("coins.png"))
        #expect(processor.faceCounts == [1, native.count, -1, 1])

        // Raw data of a photo stored turned, with the orientation given by the caller (not read from EXIF).
        let url = SnippetFixtures.oriented(6)
        let boxes = try processor.process(frame: try Data(contentsOf: url), orientation: .right)
        let reference = try await Visage.DetectFaceRectanglesRequest().perform(on: url)
        #expect(boxes == reference.map { CGRect(x: $0.boundingBox.minX, y: $0.boundingBox.minY, width: $0.boundingBox.width, height: $0.boundingBox.height) })
        // A file's EXIF orientation applies when the handler is given none.
        let exif = VNDetectFaceRectanglesRequest()
        try VNImageRequestHandler(url: SnippetFixtures.oriented(8)).perform([exif])
        let upright = try await Visage.DetectFaceRectanglesRequest().perform(on: SnippetFixtures.oriented(8))
        try #require(upright.count == 1)
        #expect(exif.results?.map(\.boundingBox) == upright.map { CGRect(x: $0.boundingBox.minX, y: $0.boundingBox.minY, width: $0.boundingBox.width, height: $0.boundingBox.height) })
        let ciImage = try #require(CIImage(contentsOf: url))
        #expect(try processor.process(frame: ciImage.oriented(.right)) == 1)
    }

    @Test func errorsCarryVisionCodes() throws {
        #expect(detectionErrorCode(for: SnippetFixtures.sample("missing.png")) == VNError.Code.ioError.rawValue)
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("visage-vision-garbage-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: garbage) }
        try Data("not an image".utf8).write(to: garbage)
        #expect(detectionErrorCode(for: garbage) == VNError.Code.invalidImage.rawValue)
        #expect(detectionErrorCode(for: SnippetFixtures.sample("coins.png")) == nil)
        // Visage's own stable code travels with it, as the CLI and the service report it.
        do {
            try VNImageRequestHandler(url: garbage).perform([VNDetectFaceRectanglesRequest()])
            Issue.record("undecodable data was accepted")
        } catch {
            #expect(VNError(error)?.visageCode == .unsupportedFormat)
            #expect((error as NSError).userInfo[VNError.visageCodeKey] as? String == ErrorCode.unsupportedFormat.rawValue)
        }
    }

    /// Results are normalized to the region of interest, as Vision's: they equal Visage's on the cut-out.
    @Test func regionOfInterestNormalizesToTheRegion() async throws {
        let url = SnippetFixtures.sample("coins.png")
        let request = VNDetectContoursRequest()
        request.regionOfInterest = CGRect(x: 0.25, y: 0.5, width: 0.5, height: 0.5)
        try VNImageRequestHandler(url: url).perform([request])
        let image = try Image(contentsOf: url)
        let cut = try #require(CGImage(visageImage: image).cropping(
            to: CGRect(x: 0.25 * Double(image.width), y: 0, width: 0.5 * Double(image.width), height: 0.5 * Double(image.height))))
        let native = try await Visage.DetectContoursRequest().perform(on: cut.visageImage)
        let observation = try #require(request.results?.first)
        #expect(observation.contourCount == native.contourCount)
        #expect(try observation.contour(at: 0).normalizedPoints
            == native.contours[0].normalizedPoints.map { simd_float2(Float($0.x), Float($0.y)) })

        let outside = VNDetectContoursRequest()
        outside.regionOfInterest = CGRect(x: 0.5, y: 0.5, width: 0.6, height: 0.2)
        #expect(SnippetFixtures.visionErrorCode { try VNImageRequestHandler(url: url).perform([outside]) } == .invalidOption)
        #expect(outside.results == nil)
    }

    @Test func cancelledRequestFailsAndRunsAgainLater() throws {
        let request = VNDetectContoursRequest()
        var errors: [VNError.Code?] = []
        let observed = VNDetectContoursRequest { _, error in errors.append(error.flatMap { VNError($0)?.code }) }
        request.cancel()
        observed.cancel()
        let handler = VNImageRequestHandler(url: SnippetFixtures.sample("horse.png"))
        #expect(SnippetFixtures.visionErrorCode { try handler.perform([request, observed]) } == .requestCancelled)
        #expect(request.results == nil && errors == [.requestCancelled])
        try handler.perform([request])
        #expect(request.results?.count == 1)
    }

    @Test func normalizedHelpersScaleWithoutFlipping() {
        let rect = CGRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25)
        #expect(VNImageRectForNormalizedRect(rect, 200, 100) == CGRect(x: 50, y: 50, width: 100, height: 25))
        #expect(VNNormalizedRectForImageRect(CGRect(x: 50, y: 50, width: 100, height: 25), 200, 100) == rect)
        #expect(VNImagePointForNormalizedPoint(CGPoint(x: 0.5, y: 0.1), 200, 100) == CGPoint(x: 100, y: 10))
        #expect(VNImagePointForFaceLandmarkPoint(vector_float2(0.5, 0.5), rect, 200, 100) == CGPoint(x: 100, y: 62.5))
        #expect(VNNormalizedRectIsIdentityRect(VNNormalizedIdentityRect) && !VNNormalizedRectIsIdentityRect(rect))
        // Relative to a region of interest: the region's lower-left corner is (0, 0), its upper right (1, 1).
        let roi = CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.25)
        #expect(VNImagePointForNormalizedPointUsingRegionOfInterest(CGPoint(x: 1, y: 1), 200, 100, roi) == CGPoint(x: 200, y: 75))
        #expect(VNNormalizedPointForImagePointUsingRegionOfInterest(CGPoint(x: 150, y: 50), 200, 100, roi) == CGPoint(x: 0.5, y: 0))
        #expect(VNImageRectForNormalizedRectUsingRegionOfInterest(rect, 200, 100, roi) == CGRect(x: 125, y: 62.5, width: 50, height: 6.25))
        #expect(VNNormalizedRectForImageRectUsingRegionOfInterest(CGRect(x: 125, y: 62.5, width: 50, height: 6.25), 200, 100, roi) == rect)
        let error = VNError(.invalidImage, "bad pixels").nsError
        #expect(error.domain == VNErrorDomain && error.code == 13 && error.localizedDescription == "bad pixels")
        #expect(VNError(error)?.code == .invalidImage && VNError(CocoaError(.fileNoSuchFile)) == nil)
    }
}
