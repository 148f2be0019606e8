import Foundation
import Testing
import Visage

/// `visage run-model` on the MediaPipe models and LiteRT outputs of Scripts/make-custom-model-fixtures.py.
@Suite struct RunModelCommandTests {
    static let fixtures = "Tests/VisageTests/Fixtures/custom-models/"

    struct Output: Decodable {
        var name: String
        var shape: [Int]
        var values: [Float]
    }

    /// A 200×150 picture stretched to the model's 256×256 input, against LiteRT on OpenCV's float resize.
    @Test func stretchedPictureMatchesLiteRT() throws {
        let result = try CLIRunner.run(["run-model", Self.fixtures + "hand_recrop.tflite", Self.fixtures + "astronaut-200x150.png", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let printed = try JSONDecoder().decode([String: [Output]].self, from: Data(lines[0].utf8))
        #expect(Array(printed.keys) == ["outputs"])
        let reference = try JSONDecoder().decode(
            [String: [Output]].self,
            from: Data(contentsOf: CLIRunner.packageRoot.appendingPathComponent(Self.fixtures + "hand_recrop.litert.json")))
        let expected = try #require(reference["astronaut-200x150.png"])
        let outputs = try #require(printed["outputs"])
        #expect(outputs.map(\.name) == expected.map(\.name) && outputs.map(\.shape) == expected.map(\.shape))
        for (output, reference) in zip(outputs, expected) {
            let worst = zip(output.values, reference.values).map { abs($0 - $1) }.max() ?? .infinity
            // The warp samples at the same points as OpenCV (pixel centres aligned); measured under 3e-5.
            #expect(worst <= 1e-4, "\(output.name): largest difference \(worst)")
        }
    }

    @Test func unsupportedOperatorsExitOneNamingThem() throws {
        let result = try CLIRunner.run(["run-model", Self.fixtures + "selfie_segmentation.tflite", "Samples/astronaut.png", "--json"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "visage: unsupported model: operators HARD_SWISH ×11, AVERAGE_POOL_2D ×10, custom Convolution2DTransposeBias ×1\n")
    }

    /// Without --input-range, a model's TFLite metadata sets it: MediaPipe's short-range face detector
    /// declares −1…1, and on its own 128×128 input fixture its regressors are then LiteRT's; forcing
    /// 0,1 changes them, and `--input-range -1,1` (the value as its own argument) gives LiteRT's again.
    @Test func metadataSetsTheDefaultInputRange() throws {
        let root = CLIRunner.packageRoot
        let pixels = [UInt8](try Data(contentsOf: root.appendingPathComponent("Tests/VisageTests/Fixtures/one-face.shortRange.input.rgb")))
        let png = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + ".png")
        defer { try? FileManager.default.removeItem(at: png) }
        try Image(width: 128, height: 128, pixelFormat: .rgb8, pixels: pixels).pngData().write(to: png)
        let data = try Data(contentsOf: root.appendingPathComponent("Tests/VisageTests/Fixtures/one-face.shortRange.regressors.f32"))
        let expected = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        func worst(_ extra: [String]) throws -> Float {
            let result = try CLIRunner.run(["run-model", "Models/face_detection_short_range.tflite", png.path, "--json"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let printed = try JSONDecoder().decode([String: [Output]].self, from: Data(result.stdout.utf8))
            let regressors = try #require(printed["outputs"]?.first { $0.shape.last == 16 })
            #expect(regressors.values.count == expected.count)
            return zip(regressors.values, expected).map { abs($0 - $1) }.max() ?? .infinity
        }
        let byMetadata = try worst([])
        #expect(byMetadata <= 1e-3, "largest difference \(byMetadata)")
        #expect(try worst(["--input-range", "0,1"]) > 0.1)
        #expect(try worst(["--input-range", "-1,1"]) <= 1e-3)
    }

    @Test func inputRangeIsValidated() throws {
        let result = try CLIRunner.run(["run-model", Self.fixtures + "hand_recrop.tflite", "Samples/astronaut.png", "--input-range", "0,255"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--input-range 0,255 must be 0,1 or -1,1"))
    }
}
