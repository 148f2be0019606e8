import ArgumentParser
import Foundation
import Visage

/// `visage run-model`: a third-party TFLite model on an image or its faces (CustomModelRequest).
struct RunModelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run-model",
        abstract: "Run a TFLite model on an image, or on each face crop, and print its output tensors.",
        discussion: """
            The image (or each face's mesh region with --faces) is stretched to the model's input \
            (left untouched when the sizes match), as RGB in [0,1] unless --input-range or the model's TFLite metadata (its NormalizationOptions) says otherwise. \
            A model using operators or tensor types Visage does not run is refused before anything runs, \
            naming each with its count (exit 1). No custom operator is supported.

              $ visage run-model hand_recrop.tflite photo.png --json
              {"outputs":[{"name":"output_crop","shape":[1,1,1,4],"values":[126.03,…]}]}
              $ visage run-model iris_landmark.tflite face.jpg --faces --json
              (one line per face: {"face": {x, y, width, height}, "outputs": […]})

            Exit status: 0 ran, 1 the model or image could not be used, 2 usage.
            """)

    @Argument(help: "The .tflite model.")
    var model: String

    @Argument(help: "The image (\(ImageFileFormat.allCommonNames)).")
    var image: String

    @Flag(help: "Run on each detected face's mesh region (square, eyes level) instead of the whole image.")
    var faces = false

    // .unconditional: "-1,1" is read as the value, not as an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("The range pixel levels 0…255 map onto; default: the model's metadata, else 0,1.", valueName: "0,1|-1,1"))
    var inputRange: String?

    @Option(help: ArgumentHelp("A labels file (one per line): print the top classes of the first output.", valueName: "FILE"))
    var labels: String?

    @Option(help: "How many classes --labels prints.")
    var top = 5

    @Flag(help: "Print {\"outputs\": [{\"name\", \"shape\", \"values\"}]} per crop, values row-major.")
    var json = false

    func validate() throws {
        _ = try valueRange()
        guard (1...1000).contains(top) else { throw ValidationError("--top \(top) must be between 1 and 1000") }
    }

    private func valueRange() throws -> ClosedRange<Float>? {
        switch inputRange {
        case nil: return nil
        case "0,1": return 0...1
        case "-1,1": return -1...1
        case let range?: throw ValidationError("--input-range \(range) must be 0,1 or -1,1")
        }
    }

    func run() async throws {
        do {
            try await runModel()
        } catch {
            // The library's message (ModelError names every unsupported operator with its count).
            FileHandle.standardError.write(Data("visage: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func runModel() async throws {
        let custom = try CustomModel(
            contentsOf: URL(fileURLWithPath: model), labelsURL: labels.map { URL(fileURLWithPath: $0) })
        let request = CustomModelRequest(
            model: custom, input: .init(valueRange: try valueRange() ?? custom.metadataValueRange, border: .replicate),
            region: faces ? .faces(.meshRegion) : .wholeImage)
        let results = try await ImageRequestHandler(URL(fileURLWithPath: image)).perform(request)
        for result in results {
            if json {
                let (w, h) = (Double(result.imageWidth), Double(result.imageHeight))
                let box = result.face.map {
                    FaceRecord.Rect(x: $0.boundingBox.minX * w, y: (1 - $0.boundingBox.maxY) * h, width: $0.boundingBox.width * w, height: $0.boundingBox.height * h)
                }
                try JSONOutput.line(Record(outputs: result.outputs, face: box))
                continue
            }
            let crop = result.crop
            print("\(image): \(faces ? "face" : "image") crop centre (\(Int(crop.centerX.rounded())), \(Int(crop.centerY.rounded()))) "
                + "\(Int(crop.width.rounded()))×\(Int(crop.height.rounded())) → \(result.inputWidth)×\(result.inputHeight)")
            for output in result.outputs {
                let head = output.values.prefix(8).map { String(format: "%.4g", $0) }.joined(separator: ", ")
                print("  \(output.name) \(output.shape): \(head)\(output.values.count > 8 ? ", …" : "")")
            }
            if custom.labels != nil {
                for entry in try result.classifications(top: top, labels: custom.labels) {
                    print("  \(entry.label ?? "#\(entry.index)"): \(String(format: "%.4f", entry.score))")
                }
            }
        }
        if faces && results.isEmpty && !json { print("\(image): no face") }
    }

    /// One crop's outputs; with --faces, the face's box in upright pixels (origin top left).
    struct Record: Encodable {
        var outputs: [ModelOutput]
        var face: FaceRecord.Rect?
    }
}
