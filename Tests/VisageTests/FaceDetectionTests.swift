import Foundation
import Testing
import Visage

/// The whole fast pipeline, file to observations, against MediaPipe 0.10.21's FaceDetector.
@Suite struct FaceDetectionTests {
    static let photoNames = DetectorFixtures.shared.photos.map(\.image)

    @Test(arguments: photoNames)
    func fastModeMatchesMediaPipe(photoName: String) async throws {
        let photo = DetectorFixtures.photo(photoName)
        let faces = try await DetectFaceRectanglesRequest().perform(on: DetectorFixtures.url(photoName))
        let expected = photo.shortRange.solution
        try #require(faces.count == expected.count)
        for (face, reference) in zip(faces, expected) {
            // MediaPipe's boxes have their origin at the top left.
            let box = face.boundingBox.verticallyFlipped()
            for (value, referenceValue) in zip([box.minX, box.minY, box.width, box.height], reference.box) {
                #expect(abs(value - referenceValue) <= 0.002, "box \(box) vs \(reference.box)")
            }
            for (keypoint, referencePoint) in zip(FaceKeypoint.allCases, reference.keypoints) {
                let point = face.keypoints[keypoint]
                #expect(abs(point.x - referencePoint[0]) <= 0.002 && abs(1 - point.y - referencePoint[1]) <= 0.002,
                        "\(keypoint) \(point) vs \(referencePoint)")
            }
            #expect(abs(Double(face.confidence) - reference.score) <= 0.002)
        }
    }

    /// ML Kit's shape of the same results: pixels, origin top left, degrees.
    @Test func faceDetectorReportsPixelFrames() throws {
        let photo = DetectorFixtures.photo("two-faces.png")
        let image = try Image(contentsOf: DetectorFixtures.url(photo.image))
        let faces = try FaceDetector(options: .init(performanceMode: .fast, minFaceSize: 0)).process(image)
        let expected = try #require(photo.shortRange.tasks)
        try #require(faces.count == expected.count)
        for (face, reference) in zip(faces, expected) {
            let frame = [face.frame.minX, face.frame.minY, face.frame.width, face.frame.height].map { Double($0) }
            for (value, truncated) in zip(frame, reference.pixelBox) {
                #expect(value >= Double(truncated) - 1.3 && value < Double(truncated + 1) + 1.3, "\(frame) vs \(reference.pixelBox)")
            }
            let eye = try #require(face.keypoints[.rightEye])
            #expect(abs(Double(eye.x) / Double(photo.width) - reference.keypoints[0][0]) <= 0.002)
        }
    }

    @Test func minFaceSizeDropsNarrowerFaces() throws {
        let image = try Image(contentsOf: DetectorFixtures.url("two-faces.png"))
        let all = try FaceDetector(options: .init(minFaceSize: 0)).process(image)
        try #require(all.count == 2)
        let narrowest = all.map { Double($0.frame.width) / 640 }.min()!
        let filtered = try FaceDetector(options: .init(minFaceSize: narrowest + 0.001)).process(image)
        #expect(filtered.count == 1)
        #expect(filtered.allSatisfy { Double($0.frame.width) / 640 >= narrowest + 0.001 })
    }

    @Test(arguments: [-0.1, 1.5, Double.nan])
    func invalidMinFaceSizeIsRejected(value: Double) throws {
        let image = try Image(width: 8, height: 8, pixelFormat: .gray8, pixels: [UInt8](repeating: 0, count: 64))
        #expect(throws: FaceDetectionError.invalidParameter(name: "minFaceSize", value: "\(value)", rule: "must be a fraction of the image width in 0…1")) {
            try FaceDetector(options: .init(minFaceSize: value)).process(image)
        }
    }

    @Test func errorMessagesNameTheValueAndTheRule() {
        #expect(FaceDetectionError.invalidParameter(name: "minFaceSize", value: "1.5", rule: "must be a fraction of the image width in 0…1").description
            == "minFaceSize = 1.5 is invalid: must be a fraction of the image width in 0…1")
        #expect(FaceDetectionError.model(name: "face_detection_short_range.tflite", reason: "missing").description
            == "face detector model face_detection_short_range.tflite: missing")
    }

    /// One shared model, interpreters borrowed per call: concurrent detections agree with a lone one.
    @Test func concurrentDetectionsAgree() async throws {
        let image = try Image(contentsOf: DetectorFixtures.url("two-faces.png"))
        let alone = try await DetectFaceRectanglesRequest().perform(on: image).map(\.boundingBox)
        let results = try await withThrowingTaskGroup(of: [NormalizedRect].self) { group in
            for _ in 0..<8 {
                group.addTask { try await DetectFaceRectanglesRequest().perform(on: image).map(\.boundingBox) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8 && results.allSatisfy { $0 == alone })
    }

    @Test func imageWithoutFacesGivesNoObservations() async throws {
        let faces = try await DetectFaceRectanglesRequest().perform(on: DetectorFixtures.url("no-face.png"))
        #expect(faces.isEmpty)
    }

    @Test func undecodableDataIsAnImageError() async {
        await #expect {
            try await DetectFaceRectanglesRequest().perform(on: Data("not an image".utf8))
        } throws: { error in
            guard case .image = error as? FaceDetectionError else { return false }
            return true
        }
    }

    @Test func tinyImagesAreHandled() async throws {
        let image = try Image(width: 1, height: 1, pixelFormat: .rgb8, pixels: [200, 150, 100])
        #expect(try await DetectFaceRectanglesRequest().perform(on: image).isEmpty)
    }

    /// The handler decodes once and serves every request the same image.
    @Test func handlerPerformsSeveralRequests() async throws {
        let data = try Data(contentsOf: DetectorFixtures.url("two-faces.png"))
        let handler = ImageRequestHandler(data)
        let (first, second) = try await handler.perform(DetectFaceRectanglesRequest(), DetectFaceRectanglesRequest(.revision3))
        let direct = try await DetectFaceRectanglesRequest().perform(on: data)
        #expect(first.map(\.boundingBox) == direct.map(\.boundingBox))
        #expect(second.map(\.boundingBox) == direct.map(\.boundingBox))
        #expect(Set(first.map(\.uuid)).isDisjoint(with: second.map(\.uuid)))
    }

    /// Face and contour requests on one handler: each result is what the request gives on its own.
    @Test func handlerMixesFaceAndContourRequests() async throws {
        let url = DetectorFixtures.url("one-face.jpg")
        let (faces, contours) = try await ImageRequestHandler(url).perform(DetectFaceRectanglesRequest(), DetectContoursRequest())
        #expect(faces.map(\.boundingBox) == (try await DetectFaceRectanglesRequest().perform(on: url)).map(\.boundingBox))
        let image = try Image(contentsOf: url, options: .init(applyOrientation: false))
        #expect(contours.contourCount == (try await DetectContoursRequest().perform(on: image)).contourCount)
    }

    /// The warp reads every pixel format directly; colour layouts must not change the faces.
    @Test(arguments: [PixelFormat.rgba8, .bgra8])
    func pixelFormatsGiveTheSameFaces(_ format: PixelFormat) async throws {
        let rgb = try Image(contentsOf: DetectorFixtures.url("two-faces.png")).converted(to: .rgb8)
        let reference = try await DetectFaceRectanglesRequest().perform(on: rgb)
        let faces = try await DetectFaceRectanglesRequest().perform(on: rgb.converted(to: format))
        #expect(faces.map(\.boundingBox) == reference.map(\.boundingBox))
    }

    @Test func missingFileIsAnImageError() async {
        await #expect {
            try await DetectFaceRectanglesRequest().perform(on: URL(fileURLWithPath: "/nonexistent/face.jpg"))
        } throws: { error in
            guard case .image = error as? FaceDetectionError else { return false }
            return "\(error)".contains("/nonexistent/face.jpg")
        }
    }
}
