import Foundation
import Testing
import Visage

/// `DetectFaceLandmarksRequest` and `DetectFaceCaptureQualityRequest` end to end, against MediaPipe
/// FaceLandmarker 0.10.21's meshes and facial transformation matrices (`Fixtures/landmarks/`).
@Suite(.serialized)
struct FaceLandmarksRequestTests {
    static let photos = ["astronaut.jpg", "astronaut-rolled.jpg", "camera.jpg"]

    /// Worst distance in pixels between a region's points in the picture and MediaPipe's mesh points.
    static func worstDistance(_ region: FaceLandmarkRegion, _ photo: LandmarkFixtures.Photo) -> Double {
        let reference = photo.mesh
        let size = CGSize(width: photo.width, height: photo.height)
        return zip(region.pointsInImage(imageSize: size, origin: .upperLeft), region.meshIndices).map { point, index in
            let d = SIMD2(point.x, point.y) - reference.pixel(index)
            return (d * d).sum().squareRoot()
        }.max() ?? .infinity
    }

    @Test(arguments: photos)
    func landmarksAndPoseMatchFaceLandmarker(name: String) async throws {
        let photo = LandmarkFixtures.photo(name)
        let faces = try await DetectFaceLandmarksRequest().perform(on: LandmarkFixtures.url(name))
        try #require(faces.count == 1)
        let landmarks = try #require(faces[0].landmarks)
        #expect(Self.worstDistance(landmarks.allPoints, photo) < 0.5, "\(name)")
        #expect(landmarks.leftPupil.pointCount == 1 && landmarks.faceContour.pointsClassification == .openPath)
        // Normalized to the face box: the eyes lie inside it, in its upper half (origin lower left).
        for point in landmarks.leftEye.points + landmarks.rightEye.points {
            #expect((0...1).contains(point.x) && (0.5...1).contains(point.y), "\(point)")
        }
        let reference = HeadPose(transform: photo.matrix)
        let angles = [(faces[0].roll, reference.roll), (faces[0].yaw, reference.yaw), (faces[0].pitch, reference.pitch)]
        for (ours, theirs) in angles {
            #expect(abs(ours.converted(to: .degrees).value - theirs * 180 / .pi) < 2, "\(name): \(ours) vs \(theirs) rad")
        }
        #expect(faces[0].captureQuality == nil)
    }

    /// The sample rolled by 30° counter-clockwise reads that roll.
    @Test func rolledSampleGivesItsRoll() async throws {
        let photo = LandmarkFixtures.photo("astronaut-rolled.jpg")
        let upright = try #require(try await DetectFaceLandmarksRequest().perform(on: LandmarkFixtures.url("astronaut.jpg")).first)
        let rolled = try #require(try await DetectFaceLandmarksRequest().perform(on: LandmarkFixtures.url(photo.image)).first)
        let difference = rolled.roll.converted(to: .degrees).value - upright.roll.converted(to: .degrees).value
        #expect(abs(difference - photo.rollDegrees) < 1, "roll changed by \(difference)°")
    }

    /// Given observations keep their identity and order; each face's landmarks do not depend on the others.
    @Test func inputObservationsAreAnalyzedInOrder() async throws {
        let image = try Image(contentsOf: DetectorFixtures.url("two-faces.png"))
        let detected = try await DetectFaceRectanglesRequest().perform(on: image)
        try #require(detected.count == 2)
        var request = DetectFaceLandmarksRequest()
        request.inputFaceObservations = detected.reversed()
        let faces = try await request.perform(on: image)
        #expect(faces.map(\.uuid) == detected.reversed().map(\.uuid))
        #expect(faces.map(\.boundingBox) == detected.reversed().map(\.boundingBox))
        // Given boxes are refined (MeshRefinementTests), so the reference is the same boxes in their own order.
        request.inputFaceObservations = detected
        let plain = try await request.perform(on: image)
        // The box goes to the lower-left origin and back, so points agree to rounding.
        for (face, reference) in zip(faces.reversed(), plain) {
            #expect(Self.worstDifference(try #require(face.landmarks), try #require(reference.landmarks)) < 1e-5)
        }
        // Only the given faces: one in, one out.
        request.inputFaceObservations = [detected[1]]
        let one = try await request.perform(on: image)
        try #require(one.count == 1)
        #expect(Self.worstDifference(try #require(one[0].landmarks), try #require(plain[1].landmarks)) < 1e-5)
    }

    /// Largest coordinate difference between two faces' points, normalized to their boxes.
    static func worstDifference(_ a: FaceLandmarks2D, _ b: FaceLandmarks2D) -> Double {
        guard a.allPoints.pointCount == b.allPoints.pointCount else { return .infinity }
        return zip(a.allPoints.points, b.allPoints.points).map { max(abs($0.x - $1.x), abs($0.y - $1.y)) }.max() ?? 0
    }

    static func observation(_ box: NormalizedRect) -> FaceObservation {
        let point = NormalizedPoint(x: box.midX, y: box.midY)
        return FaceObservation(
            confidence: 1, boundingBox: box, roll: .init(value: 0, unit: .radians), yaw: .init(value: 0, unit: .radians),
            pitch: .init(value: 0, unit: .radians),
            keypoints: FaceKeypoints(rightEye: point, leftEye: point, noseTip: point, mouthCenter: point, rightEarTragion: point, leftEarTragion: point))
    }

    @Test func emptyInputGivesNoResults() async throws {
        var request = DetectFaceLandmarksRequest()
        request.inputFaceObservations = []
        #expect(try await request.perform(on: LandmarkFixtures.url("astronaut.jpg")).isEmpty)
    }

    /// Boxes outside the picture, or over plain wall, come back unchanged and without landmarks.
    @Test(arguments: [
        NormalizedRect(x: 1.2, y: 0.2, width: 0.3, height: 0.3), NormalizedRect(x: -0.5, y: -0.9, width: 0.2, height: 0.2),
        NormalizedRect(x: 0.85, y: 0.8, width: 0.1, height: 0.1),
    ])
    func boxesWithoutAFaceGetNoLandmarks(box: NormalizedRect) async throws {
        var request = DetectFaceLandmarksRequest()
        let input = Self.observation(box)
        request.inputFaceObservations = [input]
        let faces = try await request.perform(on: LandmarkFixtures.url("astronaut.jpg"))
        #expect(faces == [input])
        #expect(faces[0].landmarks == nil && faces[0].analysis == nil)
    }

    @Test(arguments: [
        (NormalizedRect(x: 0.3, y: 0.3, width: 0, height: 0.2), "must have a positive width and height"),
        (NormalizedRect(x: 0.3, y: 0.3, width: 0.2, height: -0.2), "must have a positive width and height"),
        (NormalizedRect(x: .nan, y: 0.3, width: 0.2, height: 0.2), "must have finite coordinates"),
        (NormalizedRect(x: 0.3, y: 0.3, width: .infinity, height: 0.2), "must have finite coordinates"),
    ])
    func degenerateBoxesAreNamedErrors(box: NormalizedRect, rule: String) async throws {
        var request = DetectFaceLandmarksRequest()
        request.inputFaceObservations = [Self.observation(NormalizedRect(x: 0.3, y: 0.5, width: 0.2, height: 0.2)), Self.observation(box)]
        await #expect(throws: FaceDetectionError.invalidParameter(name: "inputFaceObservations[1].boundingBox", value: "\(box)", rule: rule)) {
            try await request.perform(on: LandmarkFixtures.url("astronaut.jpg"))
        }
    }

    @Test func absurdlyLargeBoxIsAnError() async throws {
        var request = DetectFaceLandmarksRequest()
        request.inputFaceObservations = [Self.observation(NormalizedRect(x: -1000, y: -1000, width: 2000, height: 2000))]
        await #expect {
            try await request.perform(on: LandmarkFixtures.url("astronaut.jpg"))
        } throws: { error in
            guard case .invalidParameter(let name, _, let rule) = error as? FaceDetectionError else { return false }
            return name == "inputFaceObservations[0].boundingBox" && rule.contains("far larger than the 640×480 image")
        }
    }

    @Test func imageWithoutFacesGivesNoObservations() async throws {
        #expect(try await DetectFaceLandmarksRequest().perform(on: DetectorFixtures.url("no-face.png")).isEmpty)
        #expect(try await DetectFaceCaptureQualityRequest().perform(on: DetectorFixtures.url("no-face.png")).isEmpty)
    }

    /// One handler, one decode: rectangles, landmarks and quality agree with each request on its own.
    @Test func handlerPerformsLandmarkAndQualityRequests() async throws {
        let url = LandmarkFixtures.url("camera.jpg")
        let (rectangles, landmarks, quality) = try await ImageRequestHandler(url).perform(
            DetectFaceRectanglesRequest(), DetectFaceLandmarksRequest(), DetectFaceCaptureQualityRequest())
        #expect(rectangles.map(\.boundingBox) == landmarks.map(\.boundingBox))
        #expect(landmarks.map(\.landmarks) == quality.map(\.landmarks))
        #expect(landmarks.map(\.landmarks) == (try await DetectFaceLandmarksRequest().perform(on: url)).map(\.landmarks))
        let score = try #require(quality.first?.captureQuality)
        #expect((0...1).contains(score))
    }

    /// The request's score is ``CaptureQuality``'s for the same face, and a darkened, blurred copy ranks lower.
    @Test func captureQualityRanksADegradedCopyLower() async throws {
        let image = try Image(contentsOf: LandmarkFixtures.url("astronaut.jpg")).converted(to: .rgb8)
        let face = try #require(try await DetectFaceCaptureQualityRequest().perform(on: image).first)
        let analysis = try #require(face.analysis)
        let direct = try CaptureQuality(image: image, mesh: analysis.mesh, pose: analysis.pose, classification: analysis.classification)
        #expect(face.captureQuality == direct.score)
        // Average 2×2 blocks and darken to a third.
        var pixels = image.packedPixels
        let (w, h) = (image.width, image.height)
        for y in stride(from: 0, to: h - 1, by: 2) {
            for x in stride(from: 0, to: w - 1, by: 2) {
                for c in 0..<3 {
                    let at = [(y * w + x) * 3 + c, (y * w + x + 1) * 3 + c, ((y + 1) * w + x) * 3 + c, ((y + 1) * w + x + 1) * 3 + c]
                    let mean = at.reduce(0) { $0 + Int(pixels[$1]) } / 4 / 3
                    for i in at { pixels[i] = UInt8(mean) }
                }
            }
        }
        let degraded = try Image(width: w, height: h, pixelFormat: .rgb8, pixels: pixels)
        var request = DetectFaceCaptureQualityRequest()
        request.inputFaceObservations = [face]
        let worse = try #require(try await request.perform(on: degraded).first?.captureQuality)
        #expect(worse < direct.score, "degraded \(worse) vs \(direct.score)")
    }

    /// The same photo stored turned, with its EXIF orientation, gives the same landmarks in the upright picture.
    @Test func orientationIsHonoured() async throws {
        let upright = try Image(contentsOf: LandmarkFixtures.url("astronaut.jpg")).converted(to: .rgb8)
        let reference = try #require(try await DetectFaceLandmarksRequest().perform(on: upright).first?.landmarks)
        // Stored rotated by 90° (EXIF 6 means: turn clockwise to view): pass the stored pixels and the tag.
        let (w, h) = (upright.width, upright.height)
        let source = upright.packedPixels
        var stored = [UInt8](repeating: 0, count: source.count)
        for y in 0..<h {
            for x in 0..<w {
                // Upright (x, y) is stored at (y, w - 1 - x) in an h × w picture.
                let (sx, sy) = (y, w - 1 - x)
                for c in 0..<3 { stored[(sy * h + sx) * 3 + c] = source[(y * w + x) * 3 + c] }
            }
        }
        let turned = try Image(width: h, height: w, pixelFormat: .rgb8, pixels: stored)
        let landmarks = try #require(try await DetectFaceLandmarksRequest().perform(on: turned, orientation: .right).first?.landmarks)
        let size = CGSize(width: w, height: h)
        for (a, b) in zip(landmarks.allPoints.pointsInImage(imageSize: size), reference.allPoints.pointsInImage(imageSize: size)) {
            #expect(abs(a.x - b.x) < 1 && abs(a.y - b.y) < 1, "\(a) vs \(b)")
        }
    }

    /// Analyzers are lent one per call: concurrent requests agree with a lone one.
    @Test func concurrentRequestsAgree() async throws {
        let image = try Image(contentsOf: LandmarkFixtures.url("astronaut.jpg"))
        let alone = try await DetectFaceLandmarksRequest().perform(on: image).map(\.analysis)
        let results = try await withThrowingTaskGroup(of: [FaceAnalysis?].self) { group in
            for _ in 0..<4 {
                group.addTask { try await DetectFaceLandmarksRequest().perform(on: image).map(\.analysis) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4 && results.allSatisfy { $0 == alone })
    }

    /// A damaged encoding is a decoding error, not a crash.
    @Test func damagedAnalysisFailsToDecode() async throws {
        let faces = try await DetectFaceLandmarksRequest().perform(on: LandmarkFixtures.url("astronaut.jpg"))
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(faces)) as? [[String: Any]])
        var analysis = try #require(object[0]["analysis"] as? [String: Any])
        analysis["transform"] = [1.0, 0.0]
        object[0]["analysis"] = analysis
        let damaged = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([FaceObservation].self, from: damaged) }
    }

    /// Observations encode their analysis; decoding rebuilds the same observation and landmarks.
    @Test func observationsRoundTripThroughJSON() async throws {
        let faces = try await DetectFaceCaptureQualityRequest().perform(on: LandmarkFixtures.url("astronaut.jpg"))
        let decoded = try JSONDecoder().decode([FaceObservation].self, from: JSONEncoder().encode(faces))
        #expect(decoded == faces)
        #expect(decoded.first?.landmarks != nil && decoded.first?.landmarks == faces.first?.landmarks)
    }
}
