import Foundation
import Testing
import VisageModels
import VisageNN

/// Sparse constants (DENSIFY) and DEPTH_TO_SPACE, as MediaPipe's sparse full-range detector uses
/// them. Their values against TFLite's reference kernels are `OperatorTests`' sparse cases and the
/// sparse model's `ParityTests` fixtures; here, the sparse metadata a file may carry is untrusted.
struct SparseModelTests {
    struct Malformed: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var words: String
        var testDescription: String { file }
    }

    static let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/sparse-malformed")

    static func malformed() throws -> [Malformed] {
        struct Manifest: Decodable { var cases: [Malformed] }
        return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json"))).cases
    }

    /// Each file breaks one rule of the sparse encoding (`Scripts/make-nn-fixtures.py`); each is refused
    /// as invalid, naming the tensor and the rule, before any value is placed.
    @Test(arguments: try malformed())
    func malformedSparsityIsRefused(_ fixture: Malformed) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(fixture.file))
        do {
            _ = try Model(data: data)
            Issue.record("\(fixture.file) loaded")
        } catch {
            #expect(error.kind == .modelInvalid, "\(error)")
            #expect(error.description.contains(fixture.words), "\(error)")
            #expect(error.description.contains("tensor t1"), "\(error)")
        }
    }

    /// The sparse detector needs nothing Visage lacks: DENSIFY and the DEQUANTIZE after it are folded
    /// at load (both read constants), DEPTH_TO_SPACE runs.
    @Test func sparseDetectorIsSupported() throws {
        let data = try BundledModel.faceDetectorFullRangeSparse.load()
        let support = try ModelSupport(data: data)
        #expect(support.isSupported, "\(support)")
        let model = try Model(data: data)
        #expect(model.inputs.map(\.shape) == [[1, 192, 192, 3]])
        #expect(Set(model.outputs.map(\.shape)) == [[1, 2304, 16], [1, 2304, 1]])
    }

    /// Mutants of the small sparse models (mostly metadata, unlike the detector's weights) load or
    /// throw, and those that load also run.
    @Test func sparseMutantsLoadOrThrow() throws {
        let operators = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/operators")
        let seeds = try ["densify_csr_rows_uint8", "densify_blocks_of_4", "densify_both_levels_sparse_int32",
                         "densify_traversal_columns_first_uint16", "sparse_half_convolution_then_depth_to_space"]
            .map { try Data(contentsOf: operators.appendingPathComponent("\($0).tflite")) }
        let summary = ModelFuzzer.run(seeds: seeds, iterations: 400, seed: 16, invokeLimit: 1 << 20)
        #expect(summary.iterations == 400)
        #expect(summary.loaded + summary.rejected.values.reduce(0, +) == 400)
        #expect(summary.rejected[.modelInvalid, default: 0] > 0)
        #expect(summary.invoked > 0)
    }
}
