import Foundation
import Testing
import VisageModels

/// The reference runtime's outputs on fixed inputs, written by `Scripts/make-nn-fixtures.py`.
struct ParityFixtures: Decodable {
    struct Output: Decodable, Sendable {
        var name: String
        var shape: [Int]
        var file: String
    }

    /// How far XNNPACK is from TFLite's reference kernels on the same input, per output.
    struct Spread: Decodable, Sendable {
        /// Values outside the per-value parity rule.
        var outside: Int
        var maxAbsolute: Double
    }

    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        var model: String
        var input: String
        var shape: [Int]
        /// 8-bit pixels mapped to floats by `byte * scale + offset` (image models).
        var pixels: String?
        var scale: Float?
        var offset: Float?
        /// Raw float32 values (the blendshape points).
        var values: String?
        var outputs: [Output]
        var xnnpackVersusReferenceKernels: [Spread]

        var testDescription: String { "\(model) on \(input) input" }

        var bundledModel: BundledModel { BundledModel(rawValue: model)! }

        /// The input tensor's values, exactly as the script fed them to the reference runtime.
        func inputValues() throws -> [Float] {
            if let pixels, let scale, let offset {
                return try Data(contentsOf: ParityFixtures.folder.appendingPathComponent(pixels)).map { Float($0) * scale + offset }
            }
            return try ParityFixtures.floats(values ?? "")
        }
    }

    var seed: Int
    var cases: [Case]

    static let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/parity")

    static func load() throws -> [Case] {
        try JSONDecoder().decode(ParityFixtures.self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json"))).cases
    }

    static func floats(_ file: String) throws -> [Float] {
        let data = try Data(contentsOf: folder.appendingPathComponent(file))
        return stride(from: 0, to: data.count, by: 4).map { offset in
            Float(bitPattern: data[offset ..< offset + 4].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) })
        }
    }
}
