import Foundation
import Testing
import VisageImage

/// The HEIC, AVIF, WebP, TIFF, GIF and BMP corpus that Scripts/make-format-fixtures.py writes, with Pillow's decodes.
enum FormatFixtures {
    struct Entry: Decodable, ReferenceEntry, CustomTestStringConvertible, Sendable {
        var file, reference, pixelFormat: String
        var width, height, frames, orientation: Int
        var lossy: Bool
        /// Pillow applies HEIF's irot/imir and TIFF's Orientation tag: its decode is then of the upright picture.
        var upright: Bool
        var testDescription: String { file }

        var url: URL { Fixtures.url("formats/" + file) }
        var data: Data { get throws { try Data(contentsOf: url) } }
        var format: ImageFileFormat {
            switch file.split(separator: "-")[0] {
            case "heic": .heif
            case "avif": .avif
            case "webp": .webp
            case "tiff": .tiff
            case "gif": .gif
            default: .bmp
            }
        }
    }

    struct Manifest: Decodable { var decode: [Entry] }

    static let entries: [Entry] = {
        do {
            return try JSONDecoder().decode(Manifest.self, from: Fixtures.data("formats/formats.json")).decode
        } catch {
            fatalError("Fixtures/formats/formats.json unreadable: \(error); run Scripts/make-format-fixtures.py")
        }
    }()

    static func reference(_ entry: Entry) throws -> Image {
        try Image(
            width: entry.width, height: entry.height, pixelFormat: PixelFormat(rawValue: entry.pixelFormat)!,
            pixels: [UInt8](Fixtures.data("formats/" + entry.reference)))
    }

    /// Why a format cannot be tested here (its library is not installed), printed by the tests that skip it.
    static func unavailable(_ format: ImageFileFormat) -> String? {
        let availability = format.availability
        guard !availability.isAvailable else { return nil }
        return "\(format) skipped: \(availability.problem ?? "unavailable")"
    }
}
