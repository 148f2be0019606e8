import Foundation
import Testing
import Visage
import VisageVision

/// The face snippets give what Visage's own API gives on the same image. Both modules are imported
/// here, so Visage's types are written with their module name where VisageVision has the same name.
@Suite(.serialized)
struct FaceSnippetTests {
    /// Visage's faces in pixels, origin top left.
    static func nativeBoxes(_ url: URL) async throws -> [CGRect] {
        let image = try Image(contentsOf: url)
        return try await Visage.DetectFaceRectanglesRequest().perform(on: image)
            .map { $0.boundingBox.toImageCoordinates(image.size, origin: .upperLeft) }
    }

    @Test(arguments: ["Samples/astronaut.png", "Tests/VisageTests/Fixtures/oriented-6.jpg"])
    func boxesForDrawingMatchVisage(path: String) async throws {
        let url = SnippetFixtures.root.appendingPathComponent(path)
        let image = try #require(UIImage(contentsOfFile: url.path))
        let native = try await Self.nativeBoxes(url)
        try #require(native.count == 1)
        #expect(SnippetFixtures.worstDifference(try faceBoxesForDrawing(in: image), native) < 1e-9)
        #expect(SnippetFixtures.worstDifference(try faceBoxesWithHelper(in: image), native) < 1e-9)
        #expect(SnippetFixtures.worstDifference(try faceBoxesWithTransforms(in: image), native) < 1e-9)
    }

    @Test func anglesAndRevisions() async throws {
        let url = SnippetFixtures.sample("astronaut.png")
        let native = try #require(try await Visage.DetectFaceRectanglesRequest().perform(on: url).first)
        let angles = try #require(try headAngles(of: url).first)
        #expect(abs(angles.roll - native.roll.converted(to: .degrees).value) < 1e-9)
        #expect(abs(angles.yaw - native.yaw.converted(to: .degrees).value) < 1e-9)
        #expect(abs(try #require(angles.pitch) - native.pitch.converted(to: .degrees).value) < 1e-9)

        // Revision 2 reports roll and yaw only, revision 1 no angles; an unknown revision fails the request.
        let data = try Data(contentsOf: url)
        let handler = VNImageRequestHandler(data: data)
        let second = VNDetectFaceRectanglesRequest(), first = VNDetectFaceRectanglesRequest()
        second.revision = VNDetectFaceRectanglesRequestRevision2
        first.revision = VNDetectFaceRectanglesRequestRevision1
        var reported: [Error?] = []
        let unknown = VNDetectFaceRectanglesRequest { _, error in reported.append(error) }
        unknown.revision = 9
        #expect(SnippetFixtures.visionErrorCode { try handler.perform([second, unknown, first]) } == .unsupportedRevision)
        let face2 = try #require(second.results?.first), face1 = try #require(first.results?.first)
        #expect(face2.roll != nil && face2.yaw != nil && face2.pitch == nil && face2.requestRevision == 2)
        #expect(face1.roll == nil && face1.yaw == nil && face1.pitch == nil)
        #expect(face1.boundingBox == CGRect(x: native.boundingBox.minX, y: native.boundingBox.minY,
                                            width: native.boundingBox.width, height: native.boundingBox.height))
        #expect(unknown.results == nil)
        #expect(reported.first.flatMap { VNError($0!) }?.code == .unsupportedRevision && reported.count == 1)
        #expect(VNDetectFaceRectanglesRequest.supportedRevisions == IndexSet(1 ... 3))
        #expect(VNDetectFaceRectanglesRequest().revision == VNDetectFaceRectanglesRequestRevision3)
    }

    @Test func completionHandlerCastsUntypedResults() async throws {
        let url = SnippetFixtures.sample("astronaut.png")
        let controller = FaceDetectorController()
        controller.detectFaces(in: try Data(contentsOf: url))
        #expect(controller.handlerCalls == 1 && controller.lastError == nil)
        let native = try await Self.nativeBoxes(url)
        let size = CGSize(width: 512, height: 512)
        let boxes = controller.faces.map { VNImageRectForNormalizedRect($0.boundingBox, 512, 512) }
            .map { CGRect(x: $0.minX, y: size.height - $0.maxY, width: $0.width, height: $0.height) }
        #expect(SnippetFixtures.worstDifference(boxes, native) < 1e-9)
        // The typed and the untyped `results` are the same objects.
        let request = controller.faceDetectionRequest
        let untyped = (request as VNRequest).results as? [VNFaceObservation]
        #expect(untyped?.map(\.uuid) == request.results?.map(\.uuid))

        // Undecodable data fails before any request runs: perform throws, the handler is not called.
        let broken = FaceDetectorController()
        broken.detectFaces(in: Data("not an image".utf8))
        #expect(broken.handlerCalls == 0 && broken.faces.isEmpty)
    }

    @Test func confidentFacesGetLandmarks() async throws {
        let url = SnippetFixtures.sample("astronaut.png")
        let cgImage = try #require(UIImage(contentsOfFile: url.path)?.cgImage)
        let outlines = try eyeOutlines(in: cgImage)

        let image = try Image(contentsOf: url)
        var request = Visage.DetectFaceLandmarksRequest()
        request.inputFaceObservations = try await Visage.DetectFaceRectanglesRequest().perform(on: image)
            .filter { $0.confidence > 0.7 }
        let native = try await request.perform(on: image)
        try #require(outlines.count == 1 && native.count == 1)
        let landmarks = try #require(native[0].landmarks)
        let box = native[0].boundingBox
        let leftEye = landmarks.leftEye.points.map {
            CGPoint(x: box.minX + $0.x * box.width, y: box.minY + $0.y * box.height)
        }
        #expect(SnippetFixtures.worstDifference(outlines[0].leftEye, leftEye) < 1e-9)
        #expect(SnippetFixtures.worstDifference(
            outlines[0].rightEyeInImage, landmarks.rightEye.pointsInImage(imageSize: image.size, origin: .lowerLeft)) < 1e-9)
        #expect(outlines[0].lipsPointCount == landmarks.outerLips.pointCount)
        // A threshold no face passes gives no landmarks request at all.
        #expect(try eyeOutlines(in: cgImage, minimumConfidence: 1).isEmpty)
    }

    @Test func landmarksAndQualityInOnePerform() async throws {
        let url = SnippetFixtures.sample("astronaut.png")
        let result = try #require(try noseTipAndQuality(of: url))
        let native = try #require(try await Visage.DetectFaceCaptureQualityRequest().perform(on: url).first)
        #expect(result.quality == native.captureQuality)
        let crest = try #require(native.landmarks?.noseCrest.pointsInImage(imageSize: CGSize(width: 512, height: 512), origin: .lowerLeft))
        // The snippet passes the point through Float, as `vector_float2` does.
        #expect(SnippetFixtures.worstDifference([result.noseTip], [crest.last!]) < 1e-3)
    }
}
