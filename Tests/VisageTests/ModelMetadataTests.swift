import Foundation
import Testing
import Visage
import VisageModels
import VisageNN

/// Input normalization read from TFLite metadata, against what MediaPipe 0.10.21's metadata reader finds
/// (Scripts/make-model-metadata-fixture.py), and used by a custom model that carries it.
struct ModelMetadataTests {
    struct Normalization: Decodable {
        var mean: [Float]
        var std: [Float]
    }

    static let reference: [String: [Normalization?]?] = {
        let url = CustomModelTests.folder.appendingPathComponent("metadata.json")
        return try! JSONDecoder().decode([String: [Normalization?]?].self, from: Data(contentsOf: url))
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        name == "face_detection_short_range.tflite"
            ? [UInt8](try BundledModel.faceDetectorShortRange.load())
            : [UInt8](try Data(contentsOf: CustomModelTests.folder.appendingPathComponent(name)))
    }

    @Test(arguments: ["selfie_segmentation.tflite", "hand_recrop.tflite", "face_detection_short_range.tflite"])
    func normalizationIsMediaPipes(name: String) throws {
        let expected = try #require(Self.reference[name])
        let found = InputNormalization.read(fromModel: try Self.bytes(name), inputCount: 1)
        #expect(found.count == 1)
        if let expected = expected?.first ?? nil {
            #expect(found[0] == InputNormalization(mean: expected.mean, std: expected.std))
        } else {
            #expect(found[0] == nil, "\(name) has no metadata")
        }
    }

    @Test func valueRanges() {
        #expect(InputNormalization(mean: [0], std: [255]).valueRange == 0...1)
        #expect(InputNormalization(mean: [127.5], std: [127.5]).valueRange == -1...1)
        #expect(InputNormalization(mean: [1, 2, 3], std: [1, 1, 1]).valueRange == nil, "channels normalized differently")
        // Not a model, or a model whose metadata is cut short: no normalization, no crash.
        #expect(InputNormalization.read(fromModel: [1, 2, 3], inputCount: 2) == [nil, nil])
        let truncated = Array((try? Self.bytes("face_detection_short_range.tflite").prefix(4096)) ?? [])
        #expect(InputNormalization.read(fromModel: truncated, inputCount: 1) == [nil])
    }

    /// MediaPipe's short-range face detector declares −1…1 in its metadata: run as a custom model on
    /// the detector's own 128×128 input fixture without declaring an input, its regressors are LiteRT's.
    @Test func customModelUsesTheMetadatasRange() async throws {
        let model = try CustomModel(data: BundledModel.faceDetectorShortRange.load())
        #expect(model.metadataValueRange == -1...1)
        let pixels = [UInt8](try Data(contentsOf: CustomModelTests.folder.deletingLastPathComponent().appendingPathComponent("one-face.shortRange.input.rgb")))
        let image = try Image(width: 128, height: 128, pixelFormat: .rgb8, pixels: pixels)
        let request = CustomModelRequest(model: model)
        #expect(request.input.valueRange == -1...1)
        #expect(CustomModelRequest(model: model, input: .init()).input.valueRange == 0...1, "a declared range wins")
        let outputs = try #require(try await request.perform(on: image).first?.outputs)
        let regressors = try #require(outputs.first { $0.shape.last == 16 })
        let data = try Data(contentsOf: CustomModelTests.folder.deletingLastPathComponent().appendingPathComponent("one-face.shortRange.regressors.f32"))
        let expected = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(regressors.values.count == expected.count)
        let worst = zip(regressors.values, expected).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= 1e-3, "largest difference \(worst)")
    }
}
