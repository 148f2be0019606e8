import Foundation
import VisageImage

/// The image files directly inside a folder, in name order, as frames `1 / frameRate` seconds apart.
///
/// Files are sorted by name with numbers compared as numbers (`frame2.png` before `frame10.png`) and
/// recognised by extension (JPEG, PNG, PPM, PGM). An unreadable file throws
/// ``VideoError/unreadableFrame(index:path:reason:)`` and a file of another size
/// ``VideoError/frameSizeChanged(index:expected:found:)``; either way the source can be asked again and
/// goes on with the next file, so a caller may skip the frame with a warning. Its index and time stay
/// reserved, keeping the times of later frames.
public final class ImageFolderFrameSource: FrameSource {
    public let files: [URL]
    public let frameRate: Double
    private var index = 0
    private var size: (width: Int, height: Int)?

    static let extensions = ImageFileFormat.fileExtensions

    /// Lists the folder's image files.
    /// - Throws: ``VideoError/unreadable(path:reason:)`` when the folder cannot be listed,
    ///   ``VideoError/emptyFolder(path:)`` when it holds no image files.
    public init(folder: URL, frameRate: Double) throws(VideoError) {
        try FrameLimits.validate(width: 1, height: 1, frameRate: frameRate)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw .unreadable(path: folder.path, reason: "not a readable folder")
        }
        files = names
            .filter { Self.extensions.contains(($0 as NSString).pathExtension.lowercased()) && !$0.hasPrefix(".") }
            .sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
            .map { folder.appendingPathComponent($0) }
        guard !files.isEmpty else { throw .emptyFolder(path: folder.path) }
        self.frameRate = frameRate
    }

    public func nextFrame() throws(VideoError) -> VideoFrame? {
        guard index < files.count else { return nil }
        let (file, frameIndex) = (files[index], index)
        index += 1
        let image: Image
        do {
            image = try Image(contentsOf: file)
        } catch {
            throw .unreadableFrame(index: frameIndex, path: file.path, reason: error.description)
        }
        let found = (Int(image.size.width), Int(image.size.height))
        if let size, size != found {
            throw .frameSizeChanged(index: frameIndex, expected: "\(size.width)×\(size.height)", found: "\(found.0)×\(found.1)")
        }
        size = found
        return VideoFrame(image: image, index: frameIndex, time: Double(frameIndex) / frameRate)
    }
}
