import Foundation
import Testing
import Visage

/// ML Kit's landmark, contour and classification modes on `FaceDetector`, against MediaPipe
/// FaceLandmarker 0.10.21's meshes and matrices (`Fixtures/landmarks/`).
@Suite(.serialized)
struct FaceDetectorLandmarkTests {
    static let everything = FaceDetectorOptions(landmarkMode: .all, contourMode: .all, classificationMode: .all)

    static func face(_ name: String, _ options: FaceDetectorOptions) throws -> Face {
        let faces = try FaceDetector(options: options).process(try Image(contentsOf: LandmarkFixtures.url(name)))
        try #require(faces.count == 1)
        return faces[0]
    }

    @Test func withoutModesNothingExtraIsReported() throws {
        let face = try Self.face("astronaut.jpg", .init())
        #expect(face.landmarks.isEmpty && face.contours.isEmpty)
        #expect(face.landmark(.leftEye) == nil && face.contour(.face) == nil)
        #expect(face.smilingProbability == nil && face.leftEyeOpenProbability == nil && face.rightEyeOpenProbability == nil)
    }

    /// Each mode adds only its own results.
    @Test func modesAreIndependent() throws {
        let landmarks = try Self.face("astronaut.jpg", .init(landmarkMode: .all))
        #expect(landmarks.landmarks.count == 10 && landmarks.contours.isEmpty && landmarks.smilingProbability == nil)
        let contours = try Self.face("astronaut.jpg", .init(contourMode: .all))
        #expect(contours.landmarks.isEmpty && contours.contours.count == 15 && contours.leftEyeOpenProbability == nil)
        let classified = try Self.face("astronaut.jpg", .init(classificationMode: .all))
        #expect(classified.landmarks.isEmpty && classified.contours.isEmpty && classified.smilingProbability != nil)
    }

    @Test(arguments: ["astronaut.jpg", "astronaut-rolled.jpg", "camera.jpg"])
    func landmarksContoursAndAnglesMatchFaceLandmarker(name: String) throws {
        let photo = LandmarkFixtures.photo(name)
        let face = try Self.face(name, Self.everything)
        let reference = photo.mesh
        for type in FaceLandmark.LandmarkType.allCases {
            let position = try #require(face.landmark(type)?.position)
            let d = SIMD2(position.x, position.y) - reference.pixel(type.meshIndex)
            #expect((d * d).sum().squareRoot() < 0.5, "\(name): \(type)")
        }
        let counts: [FaceContour.ContourType: Int] = [
            .face: 36, .leftEyebrowTop: 5, .leftEyebrowBottom: 5, .rightEyebrowTop: 5, .rightEyebrowBottom: 5, .leftEye: 16,
            .rightEye: 16, .upperLipTop: 11, .upperLipBottom: 9, .lowerLipTop: 9, .lowerLipBottom: 9, .noseBridge: 2,
            .noseBottom: 3, .leftCheek: 1, .rightCheek: 1,
        ]
        for (type, count) in counts {
            let contour = try #require(face.contour(type))
            #expect(contour.points.count == count, "\(type)")
            for (point, index) in zip(contour.points, type.meshIndices) {
                let d = SIMD2(point.x, point.y) - reference.pixel(index)
                #expect((d * d).sum().squareRoot() < 0.5, "\(name): \(type) point \(index)")
            }
        }
        // ML Kit's degrees and signs from the fitted pose.
        let pose = HeadPose(transform: photo.matrix)
        #expect(abs(face.headEulerAngleX - pose.headEulerAngleX) < 2)
        #expect(abs(face.headEulerAngleY - pose.headEulerAngleY) < 2)
        #expect(abs(face.headEulerAngleZ - pose.headEulerAngleZ) < 2)
    }

    @Test(arguments: [
        ("astronaut.jpg", true, true), ("astronaut-eyes-closed.jpg", true, false), ("camera.jpg", false, true),
    ])
    func classificationAtOneHalf(name: String, smiling: Bool, eyesOpen: Bool) throws {
        let face = try Self.face(name, .init(classificationMode: .all))
        let smile = try #require(face.smilingProbability)
        let left = try #require(face.leftEyeOpenProbability), right = try #require(face.rightEyeOpenProbability)
        #expect((smile > 0.5) == smiling, "\(name): smiling \(smile)")
        #expect((left > 0.5) == eyesOpen && (right > 0.5) == eyesOpen, "\(name): eyes \(left), \(right)")
    }

    /// Accurate mode feeds the same mesh stage: the same face, the same landmarks within a pixel.
    @Test func accurateModeFindsTheSameLandmarks() throws {
        let fast = try Self.face("astronaut.jpg", .init(landmarkMode: .all))
        let accurate = try Self.face("astronaut.jpg", .init(performanceMode: .accurate, landmarkMode: .all))
        for (a, b) in zip(fast.landmarks, accurate.landmarks) {
            #expect(a.type == b.type && abs(a.position.x - b.position.x) < 3 && abs(a.position.y - b.position.y) < 3, "\(a) vs \(b)")
        }
    }

    /// Accurate mode cuts the mesh region of a face fast mode finds from fast mode's box, as MediaPipe's
    /// FaceLandmarker does (``FastFaceCoverage/fastFace(for:in:)``): without refinement its landmarks are
    /// FaceLandmarker's within half a pixel, as fast mode's are, though its reported box is its own.
    @Test(arguments: ["astronaut.jpg", "astronaut-rolled.jpg"])
    func accurateModesMeshStartsFromFastModesBox(name: String) throws {
        let photo = LandmarkFixtures.photo(name)
        let options = FaceDetectorOptions(performanceMode: .accurate, landmarkMode: .all, meshRegionRefinement: false)
        let face = try Self.face(name, options)
        for type in FaceLandmark.LandmarkType.allCases {
            let position = try #require(face.landmark(type)?.position)
            let d = SIMD2(position.x, position.y) - photo.mesh.pixel(type.meshIndex)
            #expect((d * d).sum().squareRoot() < 0.5, "\(name): \(type)")
        }
        let fast = try Self.face(name, .init(landmarkMode: .all))
        #expect(face.frame != fast.frame, "accurate mode reports its merged box")
    }

    @Test func imageWithoutFacesGivesNoFaces() throws {
        let image = try Image(contentsOf: DetectorFixtures.url("no-face.png"))
        #expect(try FaceDetector(options: Self.everything).process(image).isEmpty)
    }
}
