import Foundation
import Testing
import Visage
import VisageNN

/// The detector models run by Visage's engine, against LiteRT's outputs for the same input tensors.
@Suite struct DetectorRunnerTests {
    /// Photo, detector, input tensor file, regressors file, classificators file.
    static let recorded: [(String, DetectorVariant)] = DetectorFixtures.shared.photos.map { ($0.image, .shortRange) }
        + DetectorFixtures.shared.photos.filter { $0.fullRange.dense != nil }.map { ($0.image, .fullRange) }

    @Test(arguments: recorded)
    func outputsMatchLiteRT(photoName: String, variant: DetectorVariant) throws {
        let tensors = DetectorFixtures.photo(photoName).tensors(variant)
        let input = try DetectorFixtures.bytes(try #require(tensors.input)).map { Float($0) / 127.5 - 1 }
        // The short-range model is MediaPipe's own; for the full range Visage ships the dense variant.
        let expected = variant == .shortRange
            ? DetectorFixtures.RawOutputs(regressors: tensors.regressors, classificators: tensors.classificators)
            : try #require(tensors.dense)
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
}
