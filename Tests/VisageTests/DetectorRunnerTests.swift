import Foundation
import Testing
import Visage
import VisageImage
import VisageNN

/// The detector models run by Visage's engine, against LiteRT's outputs for the same input tensors.
@Suite struct DetectorRunnerTests {
    /// Photo, detector, input tensor file, regressors file, classificators file.
    static let recorded: [(String, DetectorVariant)] = DetectorFixtures.shared.photos.map { ($0.image, .shortRange) }
        + DetectorFixtures.shared.photos.filter { $0.fullRange.dense != nil }.map { ($0.image, .fullRange) }
        + DetectorFixtures.shared.photos.filter { $0.fullRange.input != nil }.map { ($0.image, .fullRangeSparse) }

    @Test(arguments: recorded)
    func outputsMatchLiteRT(photoName: String, variant: DetectorVariant) throws {
        let tensors = DetectorFixtures.photo(photoName).tensors(variant)
        let input = try DetectorFixtures.bytes(try #require(tensors.input)).map { Float($0) / 127.5 - 1 }
        // The fixtures' full-range outputs are the sparse model's, which MediaPipe's graph runs; the
        // dense model's were recorded beside them.
        let expected = variant == .fullRange
            ? try #require(tensors.dense)
            : DetectorFixtures.RawOutputs(regressors: tensors.regressors, classificators: tensors.classificators)
        let runner = try DetectorRunner.shared(variant)
        let interpreter = try Interpreter(model: runner.model)
        interpreter.withInput(0) { _ = $0.update(fromContentsOf: input) }
        try interpreter.invoke()
        let regressors = interpreter.output(runner.regressorsIndex)
        let classificators = interpreter.output(runner.classificatorsIndex)
        let expectedRegressors = try DetectorFixtures.floats(expected.regressors)
        let expectedClassificators = try DetectorFixtures.floats(expected.classificators)
        try #require(regressors.count == expectedRegressors.count && classificators.count == expectedClassificators.count)
        // Regressors are in input pixels (up to ~±190); 0.02 px is about 0.0001 of the input.
        let regressorError = zip(regressors, expectedRegressors).map { abs($0 - $1) }.max() ?? .infinity
        let logitError = zip(classificators, expectedClassificators).map { abs($0 - $1) }.max() ?? .infinity
        #expect(regressorError <= 0.02, "largest regressor difference \(regressorError)")
        #expect(logitError <= 0.01, "largest logit difference \(logitError)")
    }

    /// The sparse full-range detector, picture to detections (Visage's letterbox warp, engine, decoding
    /// and NMS), against MediaPipe's `face_detection` with `model_selection=1`, which runs that model.
    @Test(arguments: DetectorFixtures.shared.photos.map(\.image))
    func sparseDetectorMatchesMediaPipe(photoName: String) throws {
        let photo = DetectorFixtures.photo(photoName)
        let image = try Image(contentsOf: DetectorFixtures.url(photoName))
        let found = try DetectorRunner.shared(.fullRangeSparse).detect(
            in: image, orientation: image.orientation, window: .letterbox(width: photo.width, height: photo.height))
        // The warp differs from OpenCV's fixed-point one by a step or two of 1/127.5 here and there
        // (`DetectionWindowTests`), which moves one-face.jpg's score by 0.003; on the recorded input
        // tensor the outputs match LiteRT's (`outputsMatchLiteRT`).
        try DetectorFixtures.expect(found, toMatch: photo.fullRange.solution, scoreTolerance: 0.005)
    }
}
