import Foundation
import Visage

/// The image files named on a command line: files as given, folders replaced by the image files
/// directly inside them, sorted by name. A path that does not exist is kept, so that processing it
/// reports the error with its name.
enum ImageInputs {
    static let extensions = ImageFileFormat.fileExtensions

    static func expand(_ paths: [String]) -> [URL] {
        paths.flatMap { path -> [URL] in
            let url = URL(fileURLWithPath: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                let names = try? FileManager.default.contentsOfDirectory(atPath: path)
            else { return [url] }
            return names.sorted()
                .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .map { url.appendingPathComponent($0) }
        }
    }
}
