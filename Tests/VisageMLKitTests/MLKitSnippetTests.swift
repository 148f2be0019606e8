import Foundation
import Testing
import Visage
import VisageMLKit

// Both modules in one file: the names they share (FaceDetector, FaceDetectorOptions, Face, FaceLandmark,
// FaceContour) are written module-qualified, as the README shows.

/// The ML Kit snippets on Samples/, against Visage's own `FaceDetector` on the same pixels.
@Suite(.serialized)
struct MLKitSnippetTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Samples").standardized
    /// Two people, the astronaut larger (VisageTests' fixture).
    static let twoFaces = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../VisageTests/Fixtures/two-faces.png").standardized

    static func uiImage(_ url: URL) throws -> UIImage { try #require(UIImage(contentsOfFile: url.path)) }
    static func sample(_ name: String) -> URL { samples.appendingPathComponent(name) }

    /// Native results for the same options, in ML Kit's summary shape.
    static func native(_ url: URL, _ options: Visage.FaceDetectorOptions, orientation: ImageOrientation? = nil) throws -> [Visage.Face] {
        try Visage.FaceDetector(options: options).process(try Image(contentsOf: url), orientation: orientation)
    }

    static func expectSame(_ summary: FaceSummary, _ face: Visage.Face, contours: Bool, _ context: String) {
        #expect(summary.frame == face.frame, "\(context)")
        #expect(summary.rotX == CGFloat(face.headEulerAngleX) && summary.rotY == CGFloat(face.headEulerAngleY), "\(context)")
        #expect(summary.rotZ == CGFloat(face.headEulerAngleZ), "\(context)")
        #expect(summary.landmarkCount == face.landmarks.count, "\(context)")
        #expect(summary.leftEyePosition == face.landmark(.leftEye)?.position, "\(context)")
        #expect(summary.mouthBottomPosition == face.landmark(.mouthBottom)?.position, "\(context)")
        #expect(summary.leftEyeContour == (contours ? face.contour(.leftEye)?.points : nil), "\(context)")
        #expect(summary.upperLipBottomContour == (contours ? face.contour(.upperLipBottom)?.points : nil), "\(context)")
        #expect(summary.smileProb == face.smilingProbability.map { CGFloat($0) }, "\(context)")
        #expect(summary.leftEyeOpenProb == face.leftEyeOpenProbability.map { CGFloat($0) }, "\(context)")
        #expect(summary.rightEyeOpenProb == face.rightEyeOpenProbability.map { CGFloat($0) }, "\(context)")
    }

    /// Every option on, in both performance modes, on the two portraits of Samples/.
    @Test(arguments: [("astronaut.png", false), ("camera.png", false), ("astronaut.png", true)])
    func guideWithEveryOptionEqualsNative(name: String, accurate: Bool) throws {
        let guide = GuideFaceDetection(accurate: accurate, landmarks: true, contours: true, classification: true)
        let summaries = try #require(guide.detectSynchronously(in: GuideFaceDetection.visionImage(try Self.uiImage(Self.sample(name)))))
        let native = try Self.native(
            Self.sample(name),
            .init(performanceMode: accurate ? .accurate : .fast, landmarkMode: .all, contourMode: .all, classificationMode: .all))
        try #require(summaries.count == 1 && native.count == 1, "\(name): \(summaries.count) vs \(native.count)")
        Self.expectSame(summaries[0], native[0], contours: true, name)
        if name == "astronaut.png" { #expect(summaries[0].landmarkCount == 10 && summaries[0].contourPointCount == 133) }
        #expect(summaries[0].trackingId == nil)
    }

    /// The guide's camera path: the image orientation from the device and camera, each of the eight.
    @Test(arguments: UIImage.Orientation.allCases)
    func everyOrientationEqualsNative(orientation: UIImage.Orientation) throws {
        let guide = GuideFaceDetection(accurate: false, landmarks: false, contours: false, classification: false)
        let visionImage = VisionImage(image: try Self.uiImage(Self.sample("astronaut.png")))
        visionImage.orientation = orientation
        let summaries = try #require(guide.detectSynchronously(in: visionImage))
        let native = try Self.native(Self.sample("astronaut.png"), .init(), orientation: ImageOrientation(orientation))
        try #require(summaries.count == native.count && !native.isEmpty, "\(orientation)")
        for (summary, face) in zip(summaries, native) { Self.expectSame(summary, face, contours: false, "\(orientation)") }
        // Turned by 90°, the upright picture is the stored one turned: width and height swap in the frame's space.
        if [.left, .right, .leftMirrored, .rightMirrored].contains(orientation) {
            let upright = try Self.native(Self.sample("astronaut.png"), .init())[0].frame
            #expect(abs(summaries[0].frame.width - upright.height) < 0.2 * upright.height)
        }
    }

    /// The guide's function and Visage's helper agree for every device orientation and camera.
    @Test func orientationHelperMatchesTheGuideEverywhere() {
        for device in UIDeviceOrientation.allCases {
            for camera in AVCaptureDevice.Position.allCases {
                #expect(
                    VisageMLKit.imageOrientation(deviceOrientation: device, cameraPosition: camera)
                        == AppOrientation.imageOrientation(deviceOrientation: device, cameraPosition: camera),
                    "\(device), \(camera)")
            }
        }
        // The guide's table, spelled out: back camera turns, front camera mirrors.
        #expect(VisageMLKit.imageOrientation(deviceOrientation: .portrait, cameraPosition: .back) == .right)
        #expect(VisageMLKit.imageOrientation(deviceOrientation: .portrait, cameraPosition: .front) == .leftMirrored)
        #expect(VisageMLKit.imageOrientation(deviceOrientation: .landscapeRight, cameraPosition: .front) == .upMirrored)
        #expect(UIDevice.current.orientation == .unknown)
        #expect(AppOrientation.visionImage(UIImage(cgImage: CGImage(storedPixelsOf: try! Image(contentsOf: Self.sample("coins.png")))), cameraPosition: .front).orientation == .up)
    }

    /// `process(_:completion:)` gives what `results(in:)` gives, once, off the calling thread.
    @Test func asynchronousProcessEqualsSynchronous() async throws {
        let guide = GuideFaceDetection(accurate: false, landmarks: true, contours: false, classification: true)
        let image = GuideFaceDetection.visionImage(try Self.uiImage(Self.sample("camera.png")))
        let synchronous = try #require(guide.detectSynchronously(in: image))
        let asynchronous: [FaceSummary]? = await withCheckedContinuation { continuation in
            guide.detect(in: image) { continuation.resume(returning: $0) }
        }
        #expect(asynchronous == synchronous && synchronous.count == 1)
        let none: [FaceSummary]? = await withCheckedContinuation { continuation in
            guide.detect(in: VisionImage(image: try! Self.uiImage(Self.sample("coins.png")))) { continuation.resume(returning: $0) }
        }
        #expect(none == [])
    }

    /// Contours for the most prominent face only; in fast mode with contours alone, that face alone,
    /// without angles or tracking ID.
    @Test func contoursOnlyForTheMostProminentFace() throws {
        let image = GuideFaceDetection.visionImage(try Self.uiImage(Self.twoFaces))
        let native = try Self.native(Self.twoFaces, .init(landmarkMode: .all, contourMode: .all))
        try #require(native.count == 2)
        let largest = native.max { $0.frame.width * $0.frame.height < $1.frame.width * $1.frame.height }!

        let both = try #require(GuideFaceDetection(accurate: false, landmarks: true, contours: true, classification: false, tracking: true)
            .detectSynchronously(in: image))
        #expect(both.count == 2)
        #expect(both.filter { $0.contourPointCount > 0 }.map(\.frame) == [largest.frame])
        #expect(both.allSatisfy { $0.landmarkCount == 10 && $0.trackingId != nil })
        let drawn = ContourDrawing.dots(for: try GuideFaceDetection(accurate: false, landmarks: true, contours: true, classification: false)
            .faceDetector.results(in: image))
        #expect(drawn.filter { !$0.isLandmark }.map(\.point) == Visage.FaceContour.ContourType.allCases.flatMap { largest.contour($0)!.points })
        #expect(drawn.filter(\.isLandmark).count == 20)

        let alone = try #require(GuideFaceDetection(accurate: false, landmarks: false, contours: true, classification: false, tracking: true)
            .detectSynchronously(in: image))
        try #require(alone.count == 1)
        #expect(alone[0].frame == largest.frame && alone[0].contourPointCount == 133)
        #expect(alone[0].rotX == nil && alone[0].rotY == nil && alone[0].rotZ == nil && alone[0].trackingId == nil)
    }

    /// Tracking IDs follow a face from call to call, through up to 15 calls without it; a face gone
    /// longer, or another face elsewhere, gets a new ID.
    @Test func trackingIDsAcrossCalls() throws {
        let guide = GuideFaceDetection(accurate: false, landmarks: false, contours: false, classification: false, tracking: true)
        let astronaut = GuideFaceDetection.visionImage(try Self.uiImage(Self.sample("astronaut.png")))
        let empty = GuideFaceDetection.visionImage(UIImage(cgImage: CGImage(visageImage: try Image(
            width: 64, height: 64, pixelFormat: .rgb8, pixels: [UInt8](repeating: 118, count: 64 * 64 * 3)))))
        func astronautID() throws -> Int { try #require(guide.detectSynchronously(in: astronaut)?.first?.trackingId) }
        func absent(_ calls: Int) { for _ in 0..<calls { #expect(guide.detectSynchronously(in: empty) == []) } }
        let first = try astronautID()
        #expect(try astronautID() == first)
        absent(15)
        #expect(try astronautID() == first, "missing for 15 calls")
        absent(16)
        let returned = try astronautID()
        #expect(returned != first, "missing for 16 calls")
        let others = try #require(guide.detectSynchronously(in: GuideFaceDetection.visionImage(try Self.uiImage(Self.twoFaces))))
            .compactMap(\.trackingId)
        #expect(others.count == 2 && Set(others + [first, returned]).count == 4)
        // An untracking detector reports no IDs.
        let plain = GuideFaceDetection(accurate: false, landmarks: false, contours: false, classification: false)
        #expect(plain.detectSynchronously(in: astronaut)?.first?.trackingId == nil)
    }

    /// A bad option fails as an NSError with Visage's stable code, before any model runs.
    @Test func badOptionFailsWithVisagesErrorCode() throws {
        let options = VisageMLKit.FaceDetectorOptions()
        options.minFaceSize = 2
        let detector = VisageMLKit.FaceDetector.faceDetector(options: options)
        let image = VisionImage(image: try Self.uiImage(Self.sample("coins.png")))
        do {
            _ = try detector.results(in: image)
            Issue.record("minFaceSize 2 was accepted")
        } catch let error as NSError {
            #expect(error.domain == "com.google.mlkit")
            #expect(error.userInfo["VisageErrorCode"] as? String == "invalid_parameter")
            #expect(error.localizedDescription.contains("minFaceSize"))
        }
    }

    /// ML Kit's defaults and raw values.
    @Test func optionsHaveMLKitsDefaults() {
        let options = VisageMLKit.FaceDetectorOptions()
        #expect(options.performanceMode == .fast && options.landmarkMode == .none && options.contourMode == .none)
        #expect(options.classificationMode == .none && options.minFaceSize == 0.1 && !options.isTrackingEnabled)
        #expect(FaceDetectorPerformanceMode.fast.rawValue == 1 && FaceDetectorPerformanceMode.accurate.rawValue == 2)
        #expect(FaceDetectorLandmarkMode.all.rawValue == 2 && FaceDetectorContourMode.none.rawValue == 1)
        #expect(FaceDetectorClassificationMode.all.rawValue == 2)
        #expect(VisionImage(image: UIImage(cgImage: CGImage(storedPixelsOf: try! Image(contentsOf: Self.sample("coins.png"))))).orientation == .up)
    }
}
