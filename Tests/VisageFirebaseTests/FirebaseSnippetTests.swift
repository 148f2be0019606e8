import Foundation
import Testing
import Visage
import VisageFirebase

/// The Firebase-style snippet on Samples/, against Visage's own `FaceDetector` on the same pixels.
@Suite(.serialized)
struct FirebaseSnippetTests {
    static let astronaut = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Samples/astronaut.png").standardized

    /// Every option on, read through `metadata.orientation` (EXIF 6, the back camera held upright).
    @Test func firebaseSnippetEqualsNative() async throws {
        let detection = FirebaseFaceDetection(tracking: true)
        let uiImage = try #require(UIImage(contentsOfFile: Self.astronaut.path))
        let image = FirebaseFaceDetection.visionImage(uiImage, orientation: .rightTop)
        let summaries: [FirebaseFaceSummary]? = await withCheckedContinuation { continuation in
            detection.detect(in: image) { continuation.resume(returning: $0) }
        }
        let native = try Visage.FaceDetector(options: .init(performanceMode: .accurate, landmarkMode: .all, contourMode: .all, classificationMode: .all))
            .process(try Image(contentsOf: Self.astronaut), orientation: .right)
        let summary = try #require(summaries?.first)
        try #require(summaries?.count == 1 && native.count == 1)
        let face = native[0]
        #expect(summary.frame == face.frame)
        #expect(summary.rotY == CGFloat(face.headEulerAngleY) && summary.rotZ == CGFloat(face.headEulerAngleZ))
        // NSNumber points hold the native Double pixels exactly.
        #expect(summary.leftEyePoints == face.contour(.leftEye)?.points)
        let leftEye = try #require(face.landmark(.leftEye)?.position)
        #expect(summary.leftEyePosition == CGPoint(x: CGFloat(Float(leftEye.x)), y: CGFloat(Float(leftEye.y))))
        #expect(summary.allContourPointCount == 133)
        #expect(summary.smileProb == face.smilingProbability.map { CGFloat($0) })
        #expect(summary.rightEyeOpenProb == face.rightEyeOpenProbability.map { CGFloat($0) })
        #expect(summary.trackingId != nil)
    }

    /// Firebase's guide table and EXIF raw values.
    @Test func orientationsAreEXIFs() {
        #expect(VisionDetectorImageOrientation.allCases.map(\.rawValue) == Array(1...8))
        #expect(VisionImageMetadata().orientation == .topLeft)
        #expect(imageOrientation(deviceOrientation: .portrait, cameraPosition: .back) == .rightTop)
        #expect(imageOrientation(deviceOrientation: .portrait, cameraPosition: .front) == .leftTop)
        #expect(imageOrientation(deviceOrientation: .landscapeLeft, cameraPosition: .back) == .topLeft)
        #expect(imageOrientation(deviceOrientation: .landscapeRight, cameraPosition: .front) == .topRight)
        #expect(imageOrientation(deviceOrientation: .portraitUpsideDown, cameraPosition: .back) == .leftBottom)
        let options = VisionFaceDetectorOptions()
        #expect(options.performanceMode == .fast && options.landmarkMode == .none && options.contourMode == .none)
        #expect(options.classificationMode == .none && options.minFaceSize == 0.1 && !options.isTrackingEnabled)
    }
}
