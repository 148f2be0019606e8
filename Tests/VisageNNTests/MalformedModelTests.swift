import Foundation
import Testing
import VisageModels
import VisageNN

/// Damaged files are rejected with a readable ``ModelError``, never a crash.
struct MalformedModelTests {
    @Test func emptyFileIsRejectedWithItsSize() {
        #expect(throws: ModelError.modelInvalid(reason: "the file is 0 bytes, too short for a FlatBuffer")) {
            try Model(data: Data())
        }
    }

    @Test func otherFileKindsAreRejectedByIdentifier() throws {
        let png = try Data(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/astronaut.png"))
        #expect(throws: ModelError.modelInvalid(reason: "the file identifier is not \"TFL3\"; this is not a TFLite model")) {
            try Model(data: png)
        }
    }

    /// Cutting the file anywhere leaves offsets pointing past its end.
    @Test(arguments: [8, 1000, 100_000, 229_000])
    func truncatedModelIsInvalid(length: Int) throws {
        let bytes = try BundledModel.faceDetectorShortRange.load().prefix(length)
        do {
            _ = try Model(data: Data(bytes))
            Issue.record("a \(length)-byte prefix loaded")
        } catch {
            #expect(error.kind == .modelInvalid)
            #expect(error.description.hasPrefix("invalid model: "))
        }
    }

    /// Fuzzing finding 2: 380 bytes declaring a 264 MB input are refused before anything is allocated.
    @Test func activationOverTheLimitForTheFileSizeIsRefused() throws {
        let data = try Data(contentsOf: Self.corpus.appendingPathComponent("model-huge-activations.tflite"))
        #expect(data.count == 380)
        let limit = 16 << 20 + 64 * 380
        #expect(throws: ModelError.modelInvalid(reason: "activation tensor t0 of shape [524289, 7, 6, 3] needs "
            + "\(524_289 * 7 * 6 * 3 * 4) bytes, over the \(limit)-byte limit for a 380-byte model")) {
            try Model(data: data)
        }
    }

    /// Two 12 MiB activations alive at once: each fits the limit, the arena holding both does not.
    @Test func arenaOverTheLimitIsRefusedNamingTheTensor() throws {
        let data = try Data(contentsOf: Self.corpus.appendingPathComponent("model-arena-over-limit.tflite"))
        let limit = 16 << 20 + 64 * data.count
        #expect(throws: ModelError.modelInvalid(reason: "the activation arena reaches \(2 * 12 << 20) bytes at tensor t1 "
            + "(\(12 << 20) bytes), over the model's \(limit)-byte limit")) {
            try Model(data: data)
        }
    }

    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Corpus")

    /// A bounded run of the mutation fuzzer (the release CLI runs ≥ 100,000: `visage benchmark --fuzz`).
    @Test func mutantsLoadOrThrow() throws {
        let seeds = try [BundledModel.faceDetectorShortRange.load(), BundledModel.faceBlendshapes.load()]
        let summary = ModelFuzzer.run(seeds: seeds, iterations: 48, seed: 1, invokeLimit: 300_000)
        #expect(summary.iterations == 48)
        #expect(summary.loaded + summary.rejected.values.reduce(0, +) == 48)
        #expect(summary.rejected[.modelInvalid, default: 0] > 0)
    }

    /// Mutants are a pure function of the seed and the iteration, so crashers replay.
    @Test func mutantsReplay() throws {
        let original = [UInt8](try BundledModel.faceDetectorShortRange.load())
        let first = ModelFuzzer.mutant(of: original, seed: 7, iteration: 42)
        #expect(first == ModelFuzzer.mutant(of: original, seed: 7, iteration: 42))
        #expect(first != original)
    }
}
