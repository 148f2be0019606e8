import Foundation
import Testing
import Visage
import VisageNN

/// CustomModelRequest on MediaPipe models from the mediapipe==0.10.21 wheel, against LiteRT's outputs
/// (Scripts/make-custom-model-fixtures.py).
/// The package root, for Samples/.
enum CustomModelSamples {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

@Suite struct CustomModelTests {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("custom-models")

    static func reference(_ picture: String) throws -> [ModelOutput] {
        let data = try Data(contentsOf: folder.appendingPathComponent("hand_recrop.litert.json"))
        return try #require(try JSONDecoder().decode([String: [ModelOutput]].self, from: data)[picture])
    }

    @Test func unsupportedModelNamesEveryOperatorWithItsCountBeforeRunning() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("selfie_segmentation.tflite"))
        let litert = try JSONDecoder().decode(
            [String: Int].self, from: Data(contentsOf: Self.folder.appendingPathComponent("selfie_segmentation.operators.json")))
        let support = try ModelSupport(data: data)
        // What LiteRT counts, less the operators Visage runs.
        let expected = ["HARD_SWISH", "AVERAGE_POOL_2D", "Convolution2DTransposeBias"].map { ($0, litert[$0]) }
        #expect(support.unsupportedOperators.map(\.name) == expected.map(\.0))
        #expect(support.unsupportedOperators.map(\.count) == expected.map(\.1))
        #expect(support.unsupportedOperators.map(\.isCustom) == [false, false, true])
        #expect(support.unsupportedTypes.isEmpty)
        do {
            _ = try CustomModel(data: data)
            Issue.record("the model loaded")
        } catch {
            #expect(error.kind == .unsupportedOperator)
            #expect(error.description == "unsupported model: operators HARD_SWISH ×11, AVERAGE_POOL_2D ×10, custom Convolution2DTransposeBias ×1")
            #expect(ErrorRecord(error).code == .modelUnsupported)
        }
    }

    /// An empty file is `model_invalid`, and reading it leaks nothing: Foundation's `Data(contentsOf:)`
    /// leaked its 4 KB buffer for an empty file, which the AddressSanitizer run reports (FUZZING.md, finding 3).
    @Test func emptyModelFileIsInvalidAndLeaksNothing() throws {
        do {
            _ = try CustomModel(contentsOf: Corpus.folder.appendingPathComponent("model-empty.tflite"))
            Issue.record("the empty model loaded")
        } catch {
            #expect(ErrorRecord(error).code == .modelInvalid)
        }
    }

    @Test func supportedModelHasNothingToReport() throws {
        let support = try ModelSupport(data: Data(contentsOf: Self.folder.appendingPathComponent("hand_recrop.tflite")))
        #expect(support.isSupported)
        #expect(throws: ModelError.self) { try ModelSupport(data: Data("not a model at all".utf8)) }
    }

    /// The one inference of this suite: a picture of the model's own size goes in untouched.
    @Test func wholeImageMatchesLiteRT() async throws {
        let model = try CustomModel(contentsOf: Self.folder.appendingPathComponent("hand_recrop.tflite"))
        let handler = ImageRequestHandler(Self.folder.appendingPathComponent("astronaut-256.png"))
        let results = try await handler.perform(CustomModelRequest(model: model))
        let result = try #require(results.first)
        #expect(results.count == 1 && result.face == nil)
        let expected = try Self.reference("astronaut-256.png")
        #expect(result.outputs.map(\.name) == expected.map(\.name))
        #expect(result.outputs.map(\.shape) == expected.map(\.shape))
        for (output, reference) in zip(result.outputs, expected) {
            let worst = zip(output.values, reference.values).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst <= 1e-4, "\(output.name): largest difference \(worst)")
        }
    }

    /// A face box whose crop (box plus a 25 % margin on each side) is exactly the 256×256 square that
    /// astronaut-256.png was cut from Samples/astronaut.png: the same input, so LiteRT's outputs.
    @Test func faceBoxCropMatchesLiteRTOnTheSameSquare() async throws {
        let model = try CustomModel(contentsOf: Self.folder.appendingPathComponent("hand_recrop.tflite"))
        let side = 256.0 / 1.5, (centerX, centerY) = (228.0, 148.0)
        let point = NormalizedPoint(x: 0.5, y: 0.5)
        let face = FaceObservation(
            confidence: 1,
            boundingBox: NormalizedRect(x: (centerX - side / 2) / 512, y: 1 - (centerY + side / 2) / 512, width: side / 512, height: side / 512),
            roll: .init(value: 0, unit: .degrees), yaw: .init(value: 0, unit: .degrees), pitch: .init(value: 0, unit: .degrees),
            keypoints: FaceKeypoints(
                rightEye: point, leftEye: point, noseTip: point, mouthCenter: point, rightEarTragion: point, leftEarTragion: point))
        var request = CustomModelRequest(model: model, region: .faces(.box(margin: 0.25)))
        request.inputFaceObservations = [face]
        let sample = CustomModelSamples.packageRoot.appendingPathComponent("Samples/astronaut.png")
        let results = try await ImageRequestHandler(sample).perform(request)
        let result = try #require(results.first)
        #expect(results.count == 1 && result.face == face)
        #expect(abs(result.crop.width - 256) < 1e-9 && abs(result.crop.centerX - 228) < 1e-9 && abs(result.crop.centerY - 148) < 1e-9)
        for (output, reference) in zip(result.outputs, try Self.reference("astronaut-256.png")) {
            let worst = zip(output.values, reference.values).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst <= 1e-4, "\(output.name): largest difference \(worst)")
        }
    }

    @Test func declaredSizeMustMatchTheModel() async throws {
        let model = try CustomModel(contentsOf: Self.folder.appendingPathComponent("hand_recrop.tflite"))
        let request = CustomModelRequest(model: model, input: .init(width: 224, height: 224))
        let image = try Image(contentsOf: Self.folder.appendingPathComponent("astronaut-256.png"))
        await #expect(throws: CustomModelError.inputSizeMismatch(declared: [224, 224], model: [256, 256])) {
            try await request.perform(on: image)
        }
    }

    @Test func cropMapsTensorPixelsOntoPicturePixels() {
        // Same size: every tensor pixel samples its own pixel.
        let whole = ModelCrop(wholeImageWidth: 64, height: 48)
        let identity = whole.warpTransform(tensorWidth: 64, tensorHeight: 48, rawWidth: 64, rawHeight: 48, orientation: .up)
        for (x, y) in [(0.0, 0.0), (63, 47), (10, 20)] {
            let p = identity.apply(x: x, y: y)
            #expect(abs(p.x - x) < 1e-12 && abs(p.y - y) < 1e-12)
        }
        // Stretch 200 → 256: pixel centres align (OpenCV's resize), (u + ½)·200/256 − ½.
        let stretch = ModelCrop(wholeImageWidth: 200, height: 150)
            .warpTransform(tensorWidth: 256, tensorHeight: 256, rawWidth: 200, rawHeight: 150, orientation: .up)
        let q = stretch.apply(x: 100, y: 7)
        #expect(abs(q.x - (100.5 * 200 / 256 - 0.5)) < 1e-9 && abs(q.y - (7.5 * 150 / 256 - 0.5)) < 1e-9)
        // A turned crop: the tensor's +x axis runs along the rotation, and tensorPoint inverts uprightPoint.
        let turned = ModelCrop(centerX: 50, centerY: 40, width: 20, height: 10, rotation: .pi / 2)
        let right = turned.uprightPoint(tensorX: 64, tensorY: 32, tensorWidth: 64, tensorHeight: 64)
        #expect(abs(right.x - 50) < 1e-9 && abs(right.y - 50) < 1e-9)
        let back = turned.tensorPoint(upright: SIMD2(47.5, 41.25), tensorWidth: 64, tensorHeight: 64)
        let again = turned.uprightPoint(tensorX: back.x, tensorY: back.y, tensorWidth: 64, tensorHeight: 64)
        #expect(abs(again.x - 47.5) < 1e-9 && abs(again.y - 41.25) < 1e-9)
        // EXIF orientation 6 (stored turned 90° counter-clockwise): the upright top-left is stored top-right.
        let oriented = ModelCrop(wholeImageWidth: 30, height: 40)
            .warpTransform(tensorWidth: 30, tensorHeight: 40, rawWidth: 40, rawHeight: 30, orientation: .right)
        let corner = oriented.apply(x: 0, y: 0)
        #expect(abs(corner.x - 0) < 1e-9 && abs(corner.y - 29) < 1e-9 || abs(corner.x - 39) < 1e-9 && abs(corner.y - 0) < 1e-9)
    }

    @Test func maskComesBackOntoThePicture() throws {
        // A 2×2 map over the right half of a 4×2 picture.
        let crop = ModelCrop(centerX: 3, centerY: 1, width: 2, height: 2)
        let observation = CustomModelObservation(
            outputs: [ModelOutput(name: "mask", shape: [1, 2, 2, 1], values: [0.1, 0.2, 0.3, 0.4])],
            crop: crop, inputWidth: 2, inputHeight: 2, imageWidth: 4, imageHeight: 2)
        let mask = try observation.mask()
        #expect(mask.width == 4 && mask.height == 2)
        #expect(mask.values == [0, 0, 0.1, 0.2, 0, 0, 0.3, 0.4])
        #expect(throws: CustomModelError.self) { try observation.mask(channel: 1) }
        #expect(throws: CustomModelError.self) { try observation.mask(output: 1) }
    }

    @Test func classificationHelpers() {
        let logits = ModelOutput(name: "logits", shape: [1, 3], values: [1, 3, 2])
        // softmax([1, 3, 2]) = e^(x − 3) / Σ: 0.09003057, 0.66524096, 0.24472847.
        let probabilities = logits.softmax()
        for (value, expected) in zip(probabilities, [0.09003057, 0.66524096, 0.24472847] as [Float]) {
            #expect(abs(value - expected) < 1e-6)
        }
        let top = logits.topK(2, labels: ["cat", "dog"], softmax: true)
        #expect(top.map(\.index) == [1, 2])
        #expect(top.map(\.label) == ["dog", nil])
        #expect(abs(top[0].score - 0.66524096) < 1e-6)
        #expect(logits.topK(5).count == 3)
    }
}
