import Foundation
import Testing
import Visage

/// The blendshape stage against MediaPipe FaceLandmarker 0.10.21: the model's 146-point input built from
/// the mesh, and its 52 outputs named as ARKit names them.
struct BlendshapeTests {
    @Test(arguments: LandmarkFixtures.names)
    func inputMatchesMediaPipesSubsetInPixels(name: String) throws {
        let photo = LandmarkFixtures.photo(name)
        let input = try BlendshapeInput.values(for: photo.mesh)
        #expect(input.count == BlendshapeInput.count)
        let worst = zip(input, photo.blendshapeInput).map { abs($0 - $1) }.max()!
        #expect(worst < 1e-3, "\(name): input differs by \(worst) px")
    }

    @Test(arguments: LandmarkFixtures.names)
    func outputsAreNamedAsMediaPipeNamesThem(name: String) throws {
        let photo = LandmarkFixtures.photo(name)
        let blendshapes = try FaceBlendshapes(modelOutput: photo.blendshapeOutput)
        #expect(abs(blendshapes.neutral - photo.blendshapes["_neutral"]!) < 0.01)
        for shape in Blendshape.allCases {
            let reference = try #require(photo.blendshapes[shape.description], "MediaPipe has no \(shape)")
            #expect(abs(blendshapes[shape] - reference) < 0.01, "\(name): \(shape) is \(blendshapes[shape]), MediaPipe \(reference)")
        }
        #expect(blendshapes.named.count == 51)
    }

    @Test func leftAndRightAreTheSubjects() throws {
        // The cameraman squints with the eye on the picture's left (mesh 33–133), which is his right eye.
        let photo = LandmarkFixtures.photo("camera.jpg")
        let mesh = photo.mesh
        let pictureLeft = mesh.pixel(33).x < mesh.pixel(263).x ? (33, 133, 159, 145) : (263, 362, 386, 374)
        let pictureRight = pictureLeft.0 == 33 ? (263, 362, 386, 374) : (33, 133, 159, 145)
        func openness(_ eye: (Int, Int, Int, Int)) -> Double {
            let width = mesh.pixel(eye.0) - mesh.pixel(eye.1), height = mesh.pixel(eye.2) - mesh.pixel(eye.3)
            return (height * height).sum().squareRoot() / (width * width).sum().squareRoot()
        }
        #expect(pictureLeft.0 == 33)
        #expect(openness(pictureLeft) < openness(pictureRight))
        let blendshapes = try FaceBlendshapes(modelOutput: photo.blendshapeOutput)
        #expect(blendshapes[.eyeBlinkRight] > blendshapes[.eyeBlinkLeft] + 0.1)
    }

    @Test func namesRoundTripAndCoverTheModel() {
        #expect(Blendshape.allCases.count == FaceBlendshapes.outputCount - 1)
        #expect(Blendshape.allCases.map(\.rawValue) == Array(1...51))
        for shape in Blendshape.allCases { #expect(Blendshape(name: shape.description) == shape) }
        #expect(Blendshape(name: "tongueOut") == nil)
        #expect(Blendshape(name: "_neutral") == nil)
        #expect(Blendshape.eyeBlinkLeft.description == "eyeBlinkLeft")
        #expect(Blendshape.mouthSmileRight.description == "mouthSmileRight")
    }

    @Test func subsetIsMediaPipesOrder() {
        #expect(BlendshapeInput.meshIndices.count == 146)
        #expect(Set(BlendshapeInput.meshIndices).count == 146)
        #expect(BlendshapeInput.meshIndices == BlendshapeInput.meshIndices.sorted())
        #expect(BlendshapeInput.meshIndices.suffix(10) == Array(468...477))
    }

    @Test func badOutputsAndMeshesAreRejected() {
        #expect(throws: BlendshapeError.outputSize(count: 51, expected: 52)) {
            try FaceBlendshapes(modelOutput: [Float](repeating: 0, count: 51))
        }
        var output = [Float](repeating: 0.1, count: 52)
        output[7] = .nan
        #expect(throws: BlendshapeError.nonFiniteOutput(index: 7)) { try FaceBlendshapes(modelOutput: output) }
        let short = FaceMesh(points: [SIMD3<Float>](repeating: .zero, count: 468), presence: 1, imageWidth: 10, imageHeight: 10)
        #expect(throws: BlendshapeError.meshSize(count: 468, expected: 478)) { try BlendshapeInput.values(for: short) }
    }
}
