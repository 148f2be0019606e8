import Foundation
import Testing
import Visage
import VisageNN

/// The detector models run by Visage's engine, against LiteRT's outputs for the same input tensors.
@Suite struct DetectorRunnerTests {
    static let recordedShortRange = DetectorFixtures.shared.photos.map(\.image)

    @Test(arguments: recordedShortRange)
    func shortRangeOutputsMatchLiteRT(photoName: String) throws {
        let photo = DetectorFixtures.photo(photoName)
        let tensors = photo.shortRange
        let input = try DetectorFixtures.bytes(try #require(tensors.input)).map { Float($0) / 127.5 - 1 }
        let runner = try DetectorRunner.shared(.shortRange)
        let interpreter = try Interpreter(model: runner.model)
        interpreter.withInput(0) { _ = $0.update(fromContentsOf: input) }
        try interpreter.invoke()
        let regressors = interpreter.output(runner.regressorsIndex)
        let classificators = interpreter.output(runner.classificatorsIndex)
        let expectedRegressors = try DetectorFixtures.floats(tensors.regressors)
        let expectedClassificators = try DetectorFixtures.floats(tensors.classificators)
        // Regressors are in input pixels (up to ~±128); 0.02 px is 0.00016 of the input.
        let regressorError = zip(regressors, expectedRegressors).map { abs($0 - $1) }.max() ?? .infinity
        let logitError = zip(classificators, expectedClassificators).map { abs($0 - $1) }.max() ?? .infinity
        #expect(regressorError <= 0.02, "largest regressor difference \(regressorError)")
        #expect(logitError <= 0.01, "largest logit difference \(logitError)")
    }
}
