import Foundation
import VisageNN

/// A third-party TFLite model checked and loaded for ``CustomModelRequest``: Vision's `VNCoreMLModel` role.
///
/// Loading counts every operator and tensor type first (``ModelSupport``), so a model Visage's engine
/// cannot run is refused with all of them named before anything is planned or run. No custom operator
/// is supported yet: MediaPipe's `Convolution2DTransposeBias` and the like are reported by name.
public final class CustomModel: Sendable {
    /// The loaded model: its inputs and outputs with names and shapes.
    public let model: Model
    /// Class names for classification outputs, index for index (one per line of a labels file).
    public let labels: [String]?
    /// How the first input wants pixels normalized, from the model's TFLite metadata (MediaPipe's and
    /// TensorFlow Lite Support's models carry it); nil when the model has none.
    public let inputNormalization: InputNormalization?

    /// Loads a model from the bytes of a `.tflite` file.
    /// - Throws: ``ModelError/unsupportedModel(_:)`` listing every unsupported operator and type with its
    ///   count, or another ``ModelError`` when the file is malformed or an option is unsupported.
    public init(data: Data, labels: [String]? = nil) throws(ModelError) {
        let support = try ModelSupport(data: data)
        guard support.isSupported else { throw .unsupportedModel(support) }
        model = try Model(data: data)
        self.labels = labels
        inputNormalization = InputNormalization.read(fromModel: [UInt8](data), inputCount: model.inputs.count).first ?? nil
    }

    /// The range the first input's pixel levels 0…255 map onto by its metadata, 0…1 (Visage's default)
    /// when the model has none or normalizes its channels differently.
    public var metadataValueRange: ClosedRange<Float> {
        inputNormalization?.valueRange ?? 0...1
    }

    /// Loads the `.tflite` file at `url`, with the labels file at `labelsURL` (one label per line) if given.
    /// - Throws: ``ModelFileError`` when a file cannot be read, or ``ModelError`` as ``init(data:labels:)``.
    public convenience init(contentsOf url: URL, labelsURL: URL? = nil) throws {
        let data: Data
        // FileHandle, not Data(contentsOf:): Foundation 6.3 leaks its 4 KB read buffer for an empty file (FUZZING.md, finding 3).
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw CustomModelError.unreadable(path: url.path, reason: error.localizedDescription)
        }
        var labels: [String]?
        if let labelsURL {
            guard let text = try? String(contentsOf: labelsURL, encoding: .utf8) else {
                throw CustomModelError.unreadable(path: labelsURL.path, reason: "not a readable UTF-8 text file")
            }
            labels = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            while labels?.last == "" { labels?.removeLast() }
        }
        try self.init(data: data, labels: labels)
    }

    /// The image input's width and height: the model's first input must be `[1, height, width, 3]`.
    /// - Throws: ``CustomModelError/unsupportedInput(shape:)`` otherwise.
    public func imageInputSize() throws(CustomModelError) -> (width: Int, height: Int) {
        guard let input = model.inputs.first else { throw .unsupportedInput(shape: []) }
        let shape = input.shape
        guard shape.count == 4, shape[0] == 1, shape[3] == 3, shape[1] > 0, shape[2] > 0 else {
            throw .unsupportedInput(shape: shape)
        }
        return (shape[2], shape[1])
    }
}
