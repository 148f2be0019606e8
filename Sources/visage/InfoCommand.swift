import ArgumentParser
import Foundation
import Visage

/// `visage info`: what each image file is, read from its header only.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print the format, size, pixel format and orientation of images.",
        discussion: """
            Reads only the headers. Folders are expanded to the images directly inside them.

              $ visage info Samples/astronaut.png
              Samples/astronaut.png: PNG 512×512, RGB 8-bit → rgb8, orientation up (1)
            """)

    @Argument(help: "Image files or folders (JPEG, PNG, PPM/PGM).")
    var images: [String]

    @Flag(help: "Print one JSON object per image (JSON Lines).")
    var json = false

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
    }

    func run() async throws {
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
                        orientation: info.orientation.exifValue, orientationName: info.orientation.description))
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
        return text
    }
}
