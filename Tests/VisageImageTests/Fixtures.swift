import Foundation
import Testing
import VisageImage

/// The corpus that Scripts/make-image-fixtures.py writes, and its manifest.
enum Fixtures {
    static func url(_ name: String) -> URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(name)
    }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    static let manifest: Manifest = {
        do {
            return try JSONDecoder().decode(Manifest.self, from: data("manifest.json"))
        } catch {
            fatalError("Fixtures/manifest.json unreadable: \(error); run Scripts/make-image-fixtures.py")
        }
    }()

    /// A reference image from its raw bytes.
    static func reference(_ entry: some ReferenceEntry) throws -> Image {
        try Image(
            width: entry.width, height: entry.height, pixelFormat: PixelFormat(rawValue: entry.pixelFormat)!,
            pixels: [UInt8](data(entry.reference)))
    }
}

protocol ReferenceEntry {
    var reference: String { get }
    var width: Int { get }
    var height: Int { get }
    var pixelFormat: String { get }
}

struct Manifest: Decodable {
    struct Decode: Decodable, ReferenceEntry, CustomTestStringConvertible, Sendable {
        var file, reference, pixelFormat: String
        var width, height, tolerance: Int
        var testDescription: String { file }
    }

    struct ScaledJPEG: Decodable, ReferenceEntry, CustomTestStringConvertible, Sendable {
        var file, reference, pixelFormat: String
        var width, height, tolerance, maximumDimension: Int
        var testDescription: String { "\(file) at most \(maximumDimension)" }
    }

    struct Orientation: Decodable, ReferenceEntry, CustomTestStringConvertible, Sendable {
        var file, reference, pixelFormat: String
        var width, height, tolerance, orientation, storedWidth, storedHeight: Int
        var testDescription: String { file }
    }

    struct Resize: Decodable, ReferenceEntry, CustomTestStringConvertible, Sendable {
        var method, source, reference, pixelFormat: String
        var width, height, tolerance: Int
        var testDescription: String { reference }
    }

    struct Conversion: Decodable, ReferenceEntry, Sendable {
        var source, to, reference, pixelFormat: String
        var width, height: Int
    }

    var decode: [Decode]
    var scaledJPEG: [ScaledJPEG]
    var orientation: [Orientation]
    var resize: [Resize]
    var conversion: [Conversion]
}

/// The largest per-channel difference of two images of equal size and format, nil when those differ.
func maximumDifference(_ image: Image, _ reference: Image) -> Int? {
    guard image.width == reference.width, image.height == reference.height, image.pixelFormat == reference.pixelFormat else {
        return nil
    }
    return zip(image.packedPixels, reference.packedPixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
}
