import Foundation
import Testing
import VisageNN

/// Single operators with options and shapes the bundled models do not use (align_corners,
/// masks and negative strides, two-sided broadcasting, SAME pooling at the edges, PAD folded into
/// a convolution…), against TFLite's reference kernels: `Scripts/make-nn-fixtures.py` writes the
/// tiny models and their outputs.
struct OperatorTests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var inputShape: [Int]
        var outputShape: [Int]
        var testDescription: String { name }
    }

    static let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/operators")

    static func cases() throws -> [Case] {
        struct Manifest: Decodable { var cases: [Case] }
        return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json"))).cases
    }

    @Test(arguments: try cases())
    func matchesReferenceKernels(_ fixture: Case) throws {
        let model = try Model(data: Data(contentsOf: Self.folder.appendingPathComponent("\(fixture.name).tflite")))
        #expect(model.inputs.map(\.shape) == [fixture.inputShape])
        #expect(model.outputs.map(\.shape) == [fixture.outputShape])
        let interpreter = try Interpreter(model: model)
        let input = try ParityFixtures.floats("../operators/\(fixture.name).input.f32")
        interpreter.withInput { _ = $0.update(fromContentsOf: input) }
        try interpreter.invoke()
        let expected = try ParityFixtures.floats("../operators/\(fixture.name).output.f32")
        let actual = interpreter.output(0)
        try #require(actual.count == expected.count)
        for index in expected.indices {
            let error = abs(actual[index] - expected[index])
            #expect(error <= 1e-5 || error <= 1e-4 * abs(expected[index]), "value \(index): \(actual[index]) vs \(expected[index])")
        }
    }

    @Test func unsupportedOperatorIsNamed() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("unsupported_floor.tflite"))
        #expect(throws: ModelError.unsupportedOperator(name: "FLOOR")) { try Model(data: data) }
        #expect(ModelError.unsupportedOperator(name: "FLOOR").description == "unsupported operator FLOOR")
    }
}
