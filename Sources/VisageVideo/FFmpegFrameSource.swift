import Foundation
import VisageImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Any video file, stream or camera that ffmpeg reads, decoded by an `ffmpeg` subprocess into RGB24,
/// every source frame once, at its own presentation time.
///
/// ffmpeg runs with passthrough timing (`-fps_mode passthrough`; `-vsync passthrough` before ffmpeg
/// 5.1), so it neither duplicates nor drops frames to reach a constant rate: a variable-rate phone clip
/// whose container says 120 fps gives its 169 frames, not 765. Each frame's time is read from ffmpeg,
/// not computed from a rate: the last filter is `showinfo`, which logs every frame's integer timestamp
/// and time base on standard error (``FFmpegLog``), and frame `index` is the source frame's number.
/// Times are seconds from the start of the input, as ffmpeg counts them (ffprobe's `pts_time` minus the
/// container's `start_time`, which is 0 for most files).
///
/// Size and nominal frame rate come from `ffprobe` unless given; a given size is enforced by ffmpeg
/// (`-vf scale`), and a given rate resamples to a constant rate (`-vf fps`) with times from ffmpeg as
/// well. ffmpeg applies a file's rotation metadata; the probed size is swapped to match. A stream whose
/// pixels are not square (a sample aspect ratio other than 1:1, as in CIF/QCIF test sequences, DV and
/// anamorphic DVD video) is stretched to square pixels (`-vf scale,setsar=1`, the width scaled by the
/// ratio), since the models and the pose fit take a picture's pixels as square: the carphone test
/// sequence (128:117) read unstretched turned the fitted eyes' pitch by 7° in opposite directions. A
/// file without a video stream is ``VideoError/noVideoStream(input:)``.
///
/// ```swift
/// let file = try FFmpegFrameSource(input: "clip.mp4")
/// let camera = try FFmpegFrameSource(input: "/dev/video0", inputArguments: ["-f", "v4l2"], width: 640, height: 480, frameRate: 30)
/// ```
/// - Throws: ``VideoError/toolMissing(tool:package:)`` when ffmpeg (or ffprobe) is not installed.
public final class FFmpegFrameSource: FrameSource {
    public let width: Int
    public let height: Int
    /// The given rate, or the stream's average rate as ffprobe reports it (its nominal rate when it
    /// reports no average). Frame times do not come from it.
    public let frameRate: Double
    private let input: String
    private let process: Process
    private let output: Pipe
    private let log: FFmpegLog
    private let frames: RawRGBFrameSource
    private var finished = false
    private var lastTime: Double?

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
        var squarePixels = false
        if size == nil || rate == nil {
            let probed = try Self.probe(input, inputArguments: inputArguments, ffprobe: ExternalTool("ffprobe", package: "ffmpeg", path: ffprobePath))
            squarePixels = size == nil && probed.stretched
            size = size ?? (probed.width, probed.height)
            rate = rate ?? probed.frameRate
        }
        let (outputWidth, outputHeight) = size!
        try FrameLimits.validate(width: outputWidth, height: outputHeight, frameRate: rate!)
        (self.width, self.height, self.frameRate, self.input) = (outputWidth, outputHeight, rate!, input)

        let version = FFmpegVersion(ffmpeg)
        var filters: [String] = []
        if frameRate != nil { filters.append("fps=\(rate!)") }
        if width != nil || height != nil || squarePixels { filters.append("scale=\(outputWidth):\(outputHeight),setsar=1") }
        filters.append(version.showInfoFilter)
        let arguments = ["-hide_banner", "-nostats", "-loglevel", "info", "-nostdin"] + inputArguments + [
            "-i", input, "-map", "0:v:0", "-an", "-sn", "-dn", "-vf", filters.joined(separator: ","),
        ] + version.passthroughArguments + ["-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        process = Process()
        process.executableURL = ffmpeg.executable
        process.arguments = arguments
        output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw .toolFailed(tool: "ffmpeg", reason: "cannot start \(ffmpeg.executable.path): \(error)") }
        log = FFmpegLog(descriptor: errors.fileHandleForReading.fileDescriptor)
        frames = try RawRGBFrameSource(
            stream: ByteStream(descriptor: output.fileHandleForReading.fileDescriptor, name: "ffmpeg output"),
            width: outputWidth, height: outputHeight, frameRate: rate!)
    }

    /// Stops ffmpeg when the frames are no longer wanted, without waiting for the end of the input.
    deinit {
        guard process.isRunning else { return }
        // ffmpeg acts on SIGTERM only between writes, and a full pipe nobody reads would block its write
        // forever: closing our end makes that write fail (ffmpeg ignores SIGPIPE), and it exits.
        try? output.fileHandleForReading.close()
        process.terminate()
        // A device read can block it as well: two seconds, then SIGKILL.
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The ffmpeg subprocess's id, while it runs.
    package var processIdentifier: Int32 { process.processIdentifier }

    /// The next frame, with the source's frame number and presentation time; nil when ffmpeg has
    /// finished cleanly.
    /// - Throws: ``VideoError/toolFailed(tool:reason:)`` with ffmpeg's message when it fails (a missing or
    ///   undecodable input), ``VideoError/noVideoStream(input:)`` when the input has no video,
    ///   ``VideoError/truncatedFrame(index:expectedBytes:receivedBytes:)`` when its output stops inside a frame.
    public func nextFrame() throws(VideoError) -> VideoFrame? {
        guard !finished else { return nil }
        let frame: VideoFrame?
        do {
            frame = try frames.nextFrame()
        } catch {
            finished = true
            try checkExit()
            throw error
        }
        guard var frame else {
            finished = true
            try checkExit()
            return nil
        }
        guard let timestamp = log.nextTimestamp() else {
            finished = true
            try checkExit()
            throw .toolFailed(tool: "ffmpeg", reason: "its log has no timestamp for frame \(frame.index) of '\(input)'")
        }
        // A frame without a timestamp (ffmpeg's NOPTS) follows the one before it at the nominal rate.
        let time = timestamp.seconds ?? lastTime.map { $0 + 1 / frameRate } ?? 0
        lastTime = time
        frame.index = timestamp.number
        frame.time = time
        return frame
    }

    private func checkExit() throws(VideoError) {
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            if log.reportsNoMatchingStream { throw .noVideoStream(input: input) }
            throw .toolFailed(tool: "ffmpeg", reason: "exit status \(process.terminationStatus): \(log.errorText)")
        }
    }

    /// The first video stream's display size and average frame rate, from ffprobe's JSON.
    /// The displayed size (square pixels: `stretched` when that differs from the stored size), and the rate.
    static func probe(
        _ input: String, inputArguments: [String], ffprobe: ExternalTool
    ) throws(VideoError) -> (width: Int, height: Int, frameRate: Double, stretched: Bool) {
        struct Report: Decodable {
            struct Stream: Decodable {
                struct SideData: Decodable { var rotation: Double? }
                var width: Int?
                var height: Int?
                var r_frame_rate: String?
                var avg_frame_rate: String?
                var sample_aspect_ratio: String?
                var side_data_list: [SideData]?
                var tags: [String: String]?
            }
            var streams: [Stream]?
        }
        let data = try ffprobe.run(
            ["-v", "error"] + inputArguments + [
                "-select_streams", "v:0", "-show_entries",
                "stream=width,height,sample_aspect_ratio,r_frame_rate,avg_frame_rate:stream_tags=rotate:stream_side_data=rotation", "-of", "json", input,
            ])
        guard let report = try? JSONDecoder().decode(Report.self, from: data) else {
            throw .toolFailed(tool: "ffprobe", reason: "its report on '\(input)' is not the JSON it writes")
        }
        guard let stream = report.streams?.first else { throw .noVideoStream(input: input) }
        guard let width = stream.width, let height = stream.height else {
            throw .toolFailed(tool: "ffprobe", reason: "'\(input)' has a video stream without a size")
        }
        func value(_ fraction: String?) -> Double {
            let parts = (fraction ?? "").split(separator: "/").compactMap { Double($0) }
            return parts.count == 2 && parts[1] > 0 ? parts[0] / parts[1] : 0
        }
        let average = value(stream.avg_frame_rate)
        let rate = average > 0 && average <= 10_000 ? average : value(stream.r_frame_rate)
        guard rate > 0 else { throw .toolFailed(tool: "ffprobe", reason: "'\(input)' reports no frame rate; pass one") }
        let rotation = stream.side_data_list?.compactMap(\.rotation).first ?? stream.tags?["rotate"].flatMap(Double.init) ?? 0
        let quarterTurns = Int((rotation / 90).rounded()) & 3
        // "0:1" or "N/A" means unknown: square.
        let parts = (stream.sample_aspect_ratio ?? "").split(separator: ":").compactMap { Double($0) }
        let ratio = parts.count == 2 && parts[0] > 0 && parts[1] > 0 ? parts[0] / parts[1] : 1
        let displayWidth = SquarePixels.width(width, aspect: ratio)
        let stretched = displayWidth != width
        return quarterTurns % 2 == 1 ? (height, displayWidth, rate, stretched) : (displayWidth, height, rate, stretched)
    }
}
