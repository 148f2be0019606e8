/// How a model wants its inputs normalized, from the TFLite metadata it may carry: the
/// `TFLITE_METADATA` entry of the model's `metadata` (schema.fbs: Model{4 buffers, 6 metadata},
/// Metadata{0 name, 1 buffer}) is a `ModelMetadata` FlatBuffer (metadata_schema.fbs:
/// ModelMetadata{3 subgraph_metadata}, SubGraphMetadata{2 input_tensor_metadata},
/// TensorMetadata{4 process_units}, ProcessUnit{0 options_type, 1 options}, options type 1 =
/// NormalizationOptions{0 mean, 1 std}). A model normalizes an input as `(value − mean) / std` per
/// channel, with value the 0…255 pixel level.
public struct InputNormalization: Sendable, Hashable {
    /// One value per channel, or one for all.
    public let mean: [Float]
    public let std: [Float]

    public init(mean: [Float], std: [Float]) {
        (self.mean, self.std) = (mean, std)
    }

    /// The range pixel levels 0…255 map onto when every channel is normalized alike; nil otherwise.
    public var valueRange: ClosedRange<Float>? {
        guard let m = mean.first, let s = std.first, mean.allSatisfy({ $0 == m }), std.allSatisfy({ $0 == s }), s > 0 else { return nil }
        return (0 - m) / s ... (255 - m) / s
    }

    /// Each input's normalization from the metadata of the `.tflite` file `bytes`, in the model's input
    /// order; nil for an input without one. Metadata is advisory: a file without it, or with metadata
    /// that cannot be read, gives nils (loading the model itself reports a malformed model).
    public static func read(fromModel bytes: [UInt8], inputCount: Int) -> [InputNormalization?] {
        let none = [InputNormalization?](repeating: nil, count: inputCount)
        guard let found = try? TFLiteMetadataReader.normalizations(bytes, inputCount: inputCount) else { return none }
        return found
    }
}

enum TFLiteMetadataReader {
    static func normalizations(_ bytes: [UInt8], inputCount: Int) throws(ModelError) -> [InputNormalization?] {
        var result = [InputNormalization?](repeating: nil, count: inputCount)
        let model = try FlatBuffer(bytes).root()
        guard let entries = try model.vector(6, elementSize: 4, "metadata"),
              let buffers = try model.vector(4, elementSize: 4, "buffers")
        else { return result }
        for entryIndex in 0 ..< entries.count {
            let entry = try entries.table(entryIndex, "metadata \(entryIndex)")
            guard try entry.string(0, "name") == "TFLITE_METADATA" else { continue }
            let bufferIndex = Int(try entry.uint32(1))
            guard bufferIndex < buffers.count,
                  let data = try buffers.table(bufferIndex, "buffer \(bufferIndex)").vector(0, elementSize: 1, "data")
            else { continue }
            let root = try FlatBuffer(Array(bytes[data.byteRange])).root()
            guard let subgraphs = try root.vector(3, elementSize: 4, "subgraph_metadata"), subgraphs.count > 0,
                  let inputs = try subgraphs.table(0, "subgraph metadata 0").vector(2, elementSize: 4, "input_tensor_metadata")
            else { continue }
            for input in 0 ..< min(inputs.count, inputCount) {
                guard let units = try inputs.table(input, "input metadata \(input)").vector(4, elementSize: 4, "process_units") else { continue }
                for unitIndex in 0 ..< units.count {
                    let unit = try units.table(unitIndex, "process unit \(unitIndex)")
                    guard try unit.uint8(0) == 1, let options = try unit.table(1, "NormalizationOptions") else { continue }
                    let mean = try floats(options.vector(0, elementSize: 4, "mean"))
                    let std = try floats(options.vector(1, elementSize: 4, "std"))
                    guard !mean.isEmpty, mean.count == std.count || std.count == 1 || mean.count == 1,
                          mean.allSatisfy(\.isFinite), std.allSatisfy({ $0.isFinite && $0 > 0 })
                    else { continue }
                    result[input] = InputNormalization(mean: mean, std: std)
                }
            }
        }
        return result
    }

    private static func floats(_ vector: FlatVector?) throws(ModelError) -> [Float] {
        guard let vector else { return [] }
        var values: [Float] = []
        for index in 0 ..< vector.count { values.append(Float(bitPattern: UInt32(bitPattern: try vector.int32(index)))) }
        return values
    }
}
