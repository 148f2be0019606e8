import ArgumentParser
import Foundation
import Visage

/// `visage info`: what each image file is, read from its header only.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print the format, size, pixel format, orientation and frame count of images, or the formats this machine reads.",
        discussion: """
            Reads only the headers. Folders are expanded to the images directly inside them. Files with \
            several frames or images (animated GIF and WebP, HEIC bursts, multi-page TIFF) say how many; \
            Visage decodes the first (HEIF: the primary image).

              $ visage info Samples/astronaut.png
              Samples/astronaut.png: PNG 512×512, RGB 8-bit → rgb8, orientation up (1)
              $ visage info --formats
              HEIC/HEIF  libheif.so.1 1.15.1 (libheif1)
              …
            """)

    @Argument(help: "Image files or folders (\(ImageFileFormat.allCommonNames)).")
    var images: [String] = []

    @Flag(help: "Print one JSON object per image (JSON Lines).")
    var json = false

    @Flag(help: "List every format Visage reads and whether this machine can decode it (the system library it needs, and the package to install when it is missing).")
    var formats = false

    func validate() throws {
        if images.isEmpty && !formats { throw ValidationError("Missing expected argument '<images> ...' (or --formats)") }
    }

    struct Record: Encodable {
        var image: String
        var format: String
        var width: Int
        var height: Int
        var uprightWidth: Int
        var uprightHeight: Int
        var pixelFormat: String
        var bitDepth: Int
        var colorModel: String
        var progressive: Bool
        var orientation: Int
        var orientationName: String
        var frames: Int
    }

    struct FormatRecord: Encodable {
        var format: String
        var name: String
        var available: Bool
        var decoder: String
        var version: String?
        var package: String?
        var problem: String?
    }

    func run() async throws {
        if formats {
            try listFormats()
            if images.isEmpty { return }
        }
        let batch = Batch(paths: images)
        try await batch.run { url in
            let info = try ImageFileInfo.read(contentsOf: url)
            let name = batch.displayName(url)
            if json {
                let upright = info.uprightSize
                try JSONOutput.line(
                    Record(
                        image: name, format: info.format.rawValue, width: info.width, height: info.height,
                        uprightWidth: upright.width, uprightHeight: upright.height,
                        pixelFormat: info.pixelFormat.description, bitDepth: info.bitDepth,
                        colorModel: info.colorModel, progressive: info.isProgressive,
                        orientation: info.orientation.exifValue, orientationName: info.orientation.description,
                        frames: info.frameCount))
            } else {
                print("\(name): \(Self.summary(of: info))")
            }
        }
    }

    static func summary(of info: ImageFileInfo) -> String {
        var text = "\(info.format) \(info.width)×\(info.height), \(info.colorModel) \(info.bitDepth)-bit"
        if info.isProgressive { text += info.format == .png ? " interlaced" : " progressive" }
        text += " → \(info.pixelFormat), orientation \(info.orientation) (\(info.orientation.exifValue))"
        if info.orientation.swapsDimensions {
            let upright = info.uprightSize
            text += ", upright \(upright.width)×\(upright.height)"
        }
        if info.frameCount > 1 {
            text += info.format == .heif
                ? ", \(info.frameCount) images (the primary one is decoded)"
                : ", \(info.frameCount) \(info.format == .tiff ? "pages" : "frames") (the first is decoded)"
        }
        return text
    }

    /// One line per format: what decodes it here, or what to install.
    private func listFormats() throws {
        for availability in ImageCodecAvailability.all {
            let name = availability.format.commonNames
            if json {
                try JSONOutput.line(
                    FormatRecord(
                        format: availability.format.rawValue, name: name, available: availability.isAvailable,
                        decoder: availability.decoder, version: availability.version, package: availability.package,
                        problem: availability.problem))
            } else {
                print(Self.padded(name) + Self.summary(of: availability))
            }
        }
    }

    static func padded(_ name: String) -> String { name + String(repeating: " ", count: max(1, 11 - name.count)) }

    static func summary(of availability: ImageCodecAvailability) -> String {
        guard let package = availability.package else { return availability.decoder }
        guard availability.isAvailable else {
            return "unavailable: apt-get install \(package) (\(availability.problem ?? "not loaded"))"
        }
        return "\(availability.decoder) \(availability.version ?? "") (\(package))"
    }
}
