import Foundation
import VisageImage

/// Any video file, stream or camera that ffmpeg reads, decoded by an `ffmpeg` subprocess into RGB24
/// (`ffmpeg -i INPUT -f rawvideo -pix_fmt rgb24 -`).
///
/// Size and frame rate come from `ffprobe` unless given; a given size or rate is enforced by ffmpeg
/// (`-vf scale`, `-r`). ffmpeg turns variable-rate video into frames at a constant rate, so time is
/// `index / frameRate`. ffmpeg applies a file's rotation metadata; the probed size is swapped to match.
///
/// ```swift
/// let file = try FFmpegFrameSource(input: "clip.mp4")
/// let camera = try FFmpegFrameSource(input: "/dev/video0", inputArguments: ["-f", "v4l2"], width: 640, height: 480, frameRate: 30)
/// ```
/// - Throws: ``VideoError/toolMissing(tool:package:)`` when ffmpeg (or ffprobe) is not installed.
public final class FFmpegFrameSource: FrameSource {
    public let width: Int
    public let height: Int
    public let frameRate: Double
    private let process: Process
    private let output: Pipe
    private let errors: ErrorCollector
    private let frames: RawRGBFrameSource
    private var finished = false

    /// - Parameters:
    ///   - input: a path or URL ffmpeg understands.
    ///   - inputArguments: options placed before `-i` (an input format such as `-f v4l2`).
    ///   - width, height, frameRate: the output's; probed with ffprobe when nil.
    ///   - ffmpegPath, ffprobePath: the programs, found on `PATH` when nil.
    public init(
        input: String, inputArguments: [String] = [], width: Int? = nil, height: Int? = nil, frameRate: Double? = nil,
        ffmpegPath: String? = nil, ffprobePath: String? = nil
    ) throws(VideoError) {
        let ffmpeg = try ExternalTool("ffmpeg", package: "ffmpeg", path: ffmpegPath)
        var size = width.flatMap { w in height.map { (w, $0) } }
        var rate = frameRate
        if size == nil || rate == nil {
            let probed = try Self.probe(input, inputArguments: inputArguments, ffprobe: ExternalTool("ffprobe", package: "ffmpeg", path: ffprobePath))
            size = size ?? (probed.width, probed.height)
            rate = rate ?? probed.frameRate
        }
        let (outputWidth, outputHeight) = size!
        try FrameLimits.validate(width: outputWidth, height: outputHeight, frameRate: rate!)
        (self.width, self.height, self.frameRate) = (outputWidth, outputHeight, rate!)

        var arguments = ["-hide_banner", "-loglevel", "error", "-nostdin"] + inputArguments + ["-i", input, "-an", "-sn"]
        if width != nil || height != nil { arguments += ["-vf", "scale=\(outputWidth):\(outputHeight)"] }
        if frameRate != nil { arguments += ["-r", "\(rate!)"] }
        arguments += ["-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        process = Process()
        process.executableURL = ffmpeg.executable
        process.arguments = arguments
        output = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = output
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw .toolFailed(tool: "ffmpeg", reason: "cannot start \(ffmpeg.executable.path): \(error)") }
        errors = ErrorCollector(errorPipe.fileHandleForReading)
        frames = try RawRGBFrameSource(
            stream: ByteStream(descriptor: output.fileHandleForReading.fileDescriptor, name: "ffmpeg output"),
            width: outputWidth, height: outputHeight, frameRate: rate!)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The next frame; nil when ffmpeg has finished cleanly.
    /// - Throws: ``VideoError/toolFailed(tool:reason:)`` with ffmpeg's message when it fails (a missing or
    ///   undecodable input), ``VideoError/truncatedFrame(index:expectedBytes:receivedBytes:)`` when its
    ///   output stops inside a frame.
    public func nextFrame() throws(VideoError) -> VideoFrame? {
        guard !finished else { return nil }
        do {
            if let frame = try frames.nextFrame() { return frame }
        } catch {
            finished = true
            try checkExit()
            throw error
        }
        finished = true
        try checkExit()
        return nil
    }

    private func checkExit() throws(VideoError) {
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .toolFailed(tool: "ffmpeg", reason: "exit status \(process.terminationStatus): \(errors.text)")
        }
    }

    /// The first video stream's display size and frame rate, from ffprobe's JSON.
    static func probe(_ input: String, inputArguments: [String], ffprobe: ExternalTool) throws(VideoError) -> (width: Int, height: Int, frameRate: Double) {
        struct Report: Decodable {
            struct Stream: Decodable {
                struct SideData: Decodable { var rotation: Double? }
                var width: Int?
                var height: Int?
                var r_frame_rate: String?
                var side_data_list: [SideData]?
                var tags: [String: String]?
            }
            var streams: [Stream]?
        }
        let data = try ffprobe.run(
            ["-v", "error"] + inputArguments + [
                "-select_streams", "v:0", "-show_entries",
                "stream=width,height,r_frame_rate:stream_tags=rotate:stream_side_data=rotation", "-of", "json", input,
            ])
        guard let report = try? JSONDecoder().decode(Report.self, from: data), let stream = report.streams?.first,
              let width = stream.width, let height = stream.height
        else { throw .toolFailed(tool: "ffprobe", reason: "'\(input)' has no video stream with a size") }
        let parts = (stream.r_frame_rate ?? "").split(separator: "/").compactMap { Double($0) }
        let rate = parts.count == 2 && parts[1] > 0 ? parts[0] / parts[1] : 0
        guard rate > 0 else { throw .toolFailed(tool: "ffprobe", reason: "'\(input)' reports no frame rate; pass one") }
        let rotation = stream.side_data_list?.compactMap(\.rotation).first ?? stream.tags?["rotate"].flatMap(Double.init) ?? 0
        let quarterTurns = Int((rotation / 90).rounded()) & 3
        return quarterTurns % 2 == 1 ? (height, width, rate) : (width, height, rate)
    }
}
