internal import Visage

/// Turns ``ARFaceTrackingConfiguration/videoInput`` into a frame source.
enum VideoSourceOpener {
    /// `$VISAGE_CAMERA`, or `/dev/video0`.
    static var defaultCamera: String {
        ProcessInfo.processInfo.environment["VISAGE_CAMERA"].flatMap { $0.isEmpty ? nil : $0 } ?? "/dev/video0"
    }

    /// A device or network stream: frames arrive in real time and only the newest is kept.
    static func isLive(_ input: String) -> Bool {
        input.hasPrefix("/dev/") || input.contains("://")
    }

    /// Whether `input` can be opened, checked without opening it.
    static func canOpen(_ input: String) -> Bool {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = files.fileExists(atPath: input, isDirectory: &isDirectory)
        if exists, isDirectory.boolValue || input.lowercased().hasSuffix(".y4m") { return files.isReadableFile(atPath: input) }
        let ffmpeg = (try? ExternalTool("ffmpeg", package: "ffmpeg")) != nil
        if input.contains("://") { return ffmpeg }
        return exists && files.isReadableFile(atPath: input) && ffmpeg
    }

    /// The source for `input`: camera devices through ffmpeg's v4l2 input, live inputs keeping only the
    /// newest frame, files and folders read frame by frame.
    static func open(_ input: String) throws(VideoError) -> any FrameSource {
        if input.hasPrefix("/dev/") {
            guard FileManager.default.fileExists(atPath: input) else { throw .unreadable(path: input, reason: "no such device") }
            return RealTimeFrameSource(try FFmpegFrameSource(input: input, inputArguments: ["-f", "v4l2"]))
        }
        let source = try VideoInput.open(input)
        return isLive(input) ? RealTimeFrameSource(source) : source
    }
}
