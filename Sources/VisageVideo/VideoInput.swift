import Foundation

/// Opens the right ``FrameSource`` for what a user names: a folder of images, a `.y4m` file, `-` for
/// standard input (raw RGB24 when a size is given, else a y4m stream), or anything else through ffmpeg.
public enum VideoInput {
    /// - Parameters:
    ///   - input: a path, `-`, or any input ffmpeg accepts (a URL, `/dev/video0`).
    ///   - width, height: for `-`, the raw frames' size; for ffmpeg inputs they force the output size.
    ///   - frameRate: frames per second for folders and raw input (default 30); for ffmpeg, forces the rate.
    /// - Throws: ``VideoError`` from the chosen source.
    public static func open(
        _ input: String, width: Int? = nil, height: Int? = nil, frameRate: Double? = nil, inputArguments: [String] = []
    ) throws(VideoError) -> any FrameSource {
        if input == "-" {
            guard let width, let height else { return try Y4MFrameSource(standardInput: ()) }
            return try RawRGBFrameSource(standardInputWidth: width, height: height, frameRate: frameRate ?? 30)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                return try ImageFolderFrameSource(folder: URL(fileURLWithPath: input), frameRate: frameRate ?? 30)
            }
            if input.lowercased().hasSuffix(".y4m") { return try Y4MFrameSource(path: input) }
        } else if inputArguments.isEmpty, !input.contains("://"), !input.hasPrefix("/dev/") {
            // A plain path that is not there: say so rather than ask for ffmpeg.
            throw .unreadable(path: input, reason: "no such file or folder")
        }
        return try FFmpegFrameSource(input: input, inputArguments: inputArguments, width: width, height: height, frameRate: frameRate)
    }
}
