import Foundation
import Testing
import VisageNN

/// Graph-level rewrites against the same operators run as written by TFLite's reference kernels
/// (`Scripts/make-fusion-fixtures.py` writes the tiny models and their outputs). The operation
/// count shows whether the planner fused a pattern or, for a near miss, kept the plain
/// operators; the multiply-accumulates show how many rows or channels a narrowed convolution computes. The
/// blocked matrix TRANSPOSE is checked here too, on sizes that leave every remainder.
struct FusionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Operations in the plan after fusion.
        var operations: Int
        /// Per run, of the narrowing cases' convolution.
        var multiplyAccumulates = 0
        var testDescription: String { name }
    }

    static let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/fusions")

    static let cases: [Case] = [
        Case(name: "layer_norm", operations: 1),
        Case(name: "layer_norm_odd_channels", operations: 1),
        Case(name: "layer_norm_relu", operations: 10),
        Case(name: "layer_norm_gamma_per_row", operations: 10),
        Case(name: "layer_norm_scale_read_twice", operations: 11),
        // Convolution with its residual ADD, MEAN, SUB, STRIDED_SLICE; the slice reads rows 1 and 2.
        Case(name: "rows_sliced", operations: 4, multiplyAccumulates: 3 * 64),
        Case(name: "rows_sliced_from_negative_index", operations: 4, multiplyAccumulates: 6 * 64),
        Case(name: "rows_sliced_after_mean_over_rows", operations: 4, multiplyAccumulates: 6 * 64),
        // Convolution 8→5 channels over 6 pixels, TRANSPOSE, STRIDED_SLICE of 2 rows: 2 channels computed.
        Case(name: "transposed_rows_sliced", operations: 3, multiplyAccumulates: 6 * 8 * 2),
        Case(name: "transposed_rows_sliced_convolution_read_twice", operations: 6, multiplyAccumulates: 6 * 8 * 5),
        // MAX_POOL_2D, then RESIZE_BILINEAR with the ADD after it fused (or not, when its output is read twice).
        Case(name: "resize_then_add", operations: 2),
        Case(name: "resize_then_add_resized_read_twice", operations: 4),
        Case(name: "transpose_blocks_and_edges", operations: 1),
        // ADD read whole by RELU and through a narrowed view by NEG: the RELU stays apart (ADD, RELU,
        // NEG, STRIDED_SLICE, MEAN, ADD), so the ADD's output is written for the view to read.
        Case(name: "rows_read_whole_and_through_a_view", operations: 6),
    ]

    @Test(arguments: cases)
    func matchesUnfusedReference(_ fixture: Case) throws {
        let model = try Model(data: Data(contentsOf: Self.folder.appendingPathComponent("\(fixture.name).tflite")))
        #expect(model.operationCount == fixture.operations)
        let interpreter = try Interpreter(model: model)
        #expect(interpreter.invokeProfiledPerOperation().reduce(0) { $0 + $1.multiplyAccumulates } == fixture.multiplyAccumulates)
        let input = try floats("\(fixture.name).input.f32")
        interpreter.withInput { _ = $0.update(fromContentsOf: input) }
        try interpreter.invoke()
        let expected = try floats("\(fixture.name).output.f32")
        let actual = interpreter.output(0)
        try #require(actual.count == expected.count)
        for index in expected.indices {
            let error = abs(actual[index] - expected[index])
            #expect(error <= 1e-5 || error <= 1e-4 * abs(expected[index]), "value \(index): \(actual[index]) vs \(expected[index])")
        }
    }

    private func floats(_ file: String) throws -> [Float] {
        try ParityFixtures.floats("../fusions/\(file)")
    }
}
