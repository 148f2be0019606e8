import ArgumentParser
import Foundation
import Visage

/// `visage track`: faces followed through a video, with tracking IDs, presence, attention, blink, nod and shake events.
struct TrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Follow faces through a video: tracking IDs, presence, attention, blink, nod and shake events.",
        discussion: """
            INPUT is a folder of images (sorted by name), a .y4m file, - for standard input (a y4m stream, or raw RGB24 frames with --size), or any video file or camera ffmpeg reads (ffmpeg must be installed). Times are media times from the frames, so a file runs faster than real time with the same events. A summary (frames, detector runs, dropped frames, wall-clock and CPU milliseconds per frame) goes to standard error.

              $ visage track clip.mp4 --events-only
              1.000 s  faceDetected
              1.000 s  attentionGained (anyone)
              1.000 s  attentionGained (face 1)
              1.000 s  blink both (face 1)
              2.667 s  blink left (face 1)
              2.700 s  blink right (face 1)
              4.100 s  nod 11° from 3.300 s for 0.67 s (face 1)
              $ visage track clip.mp4 --json --debounce 0 | head -1
              {"faces":[{"eyeBlinkLeft":0.037,…,"trackingID":1}],"frame":0,"time":0}
              $ ffmpeg -i a.mp4 -f yuv4mpegpipe - | visage track - --events-only
              $ visage track /dev/video0 --input-format v4l2 --realtime --events-only
            """)

    @Argument(help: "A folder of images, a .y4m file, - for standard input (y4m, or raw RGB24 with --size), or an ffmpeg input.")
    var input: String

    @Option(parsing: .unconditional, help: "Most faces tracked at once (1…16).")
    var maxFaces = 1

    @Option(parsing: .unconditional, help: ArgumentHelp("Run the detector at least every N frames even when all faces are tracked; 0 never.", valueName: "N"))
    var detectEvery = 30

    @Option(parsing: .unconditional, help: ArgumentHelp("How long presence or absence must last before faceDetected/noFaceDetected.", valueName: "SECONDS"))
    var debounce = 1.0

    @Option(parsing: .unconditional, help: ArgumentHelp("Blink coefficient at which an eye counts as closed (0…1).", valueName: "T"))
    var blinkThreshold: Float = 0.5

    @Option(parsing: .unconditional, help: ArgumentHelp("Watching: the eyes look within this many degrees of the camera; 0 or less ignores the eyes.", valueName: "DEGREES"))
    var gazeCone = 22.0

    @Option(parsing: .unconditional, help: ArgumentHelp("Watching: the head points within this many degrees of the camera; 0 or less ignores the head.", valueName: "DEGREES"))
    var headCone = 30.0

    @Option(parsing: .unconditional, help: ArgumentHelp("Watching: the more open eye's lids are at least this many iris diameters apart (eyes shut or looking down are not watching); 0 or less ignores the lids.", valueName: "RATIO"))
    var eyeOpenness = 0.5

    @Option(parsing: .unconditional, help: ArgumentHelp("How long watching or not must last before attentionGained/attentionLost.", valueName: "SECONDS"))
    var attentionDuration = 0.5

    @Flag(help: "The frames are mirrored (front camera): swap left and right so events name the subject's own eye.")
    var mirrored = false

    @Flag(help: "Live mode: process the newest frame, dropping those the pipeline cannot keep up with; files play at their frame rate.")
    var realtime = false

    @Flag(help: "Print JSON Lines: one object per frame and one per event.")
    var json = false

    @Flag(help: "Print only the events.")
    var eventsOnly = false

    @Option(help: ArgumentHelp("Write every frame with its tracked faces drawn in, as OUT_DIR/frame-000000.png …", valueName: "OUT_DIR"))
    var annotate: String?

    @Option(help: ArgumentHelp("Frame size of raw RGB24 on standard input (-); forces ffmpeg's output size.", valueName: "WxH"))
    var size: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Frames per second for folders and -, default 30; forces ffmpeg's rate.", valueName: "RATE"))
    var fps: Double?

    @Option(help: ArgumentHelp("ffmpeg input format for cameras and devices (ffmpeg's -f before -i).", valueName: "FORMAT"))
    var inputFormat: String?

    var frameSize: (width: Int, height: Int)? {
        guard let size else { return nil }
        let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    func validate() throws {
        guard (1...16).contains(maxFaces) else { throw ValidationError("--max-faces \(maxFaces) must be in 1…16") }
        guard detectEvery >= 0 else { throw ValidationError("--detect-every \(detectEvery) must be 0 (never) or a number of frames") }
        guard debounce.isFinite, (0...3600).contains(debounce) else { throw ValidationError("--debounce \(debounce) must be in 0…3600 seconds") }
        for (name, cone) in [("--gaze-cone", gazeCone), ("--head-cone", headCone)] where !(cone.isFinite && cone <= 180) {
            throw ValidationError("\(name) \(cone) must be at most 180 degrees")
        }
        guard eyeOpenness.isFinite, eyeOpenness <= 10 else { throw ValidationError("--eye-openness \(eyeOpenness) must be at most 10 iris diameters") }
        guard attentionDuration.isFinite, (0...3600).contains(attentionDuration) else {
            throw ValidationError("--attention-duration \(attentionDuration) must be in 0…3600 seconds")
        }
        guard blinkThreshold > 0.15, blinkThreshold < 1 else { throw ValidationError("--blink-threshold \(blinkThreshold) must be in (0.15, 1)") }
        if let fps, !(fps.isFinite && fps > 0 && fps <= 10_000) { throw ValidationError("--fps \(fps) must be in (0, 10000]") }
        if size != nil, frameSize == nil { throw ValidationError("--size \(size!) must be WIDTHxHEIGHT, such as 640x480") }
    }

    func run() async throws {
        var source = try openSource()
        if realtime { source = RealTimeFrameSource(source, paced: true) }
        DebugBuildWarning.warn(about: "video")
        let tracker = try FaceTracker(options: .init(
            handler: .init(maximumFaces: maxFaces, detectionInterval: detectEvery), debounce: debounce,
            blinkThreshold: blinkThreshold, blinkHysteresis: min(0.15, blinkThreshold / 2), mirrored: mirrored,
            attention: .init(
                gazeCone: gazeCone > 0 ? gazeCone : nil, headCone: headCone > 0 ? headCone : nil,
                eyeOpenness: eyeOpenness > 0 ? eyeOpenness : nil, minimumDuration: attentionDuration)))
        if let annotate { try FileManager.default.createDirectory(atPath: annotate, withIntermediateDirectories: true) }

        var (frames, skipped) = (0, 0)
        var trackingTime = Duration.zero
        var cpuMilliseconds = 0.0
        while true {
            let next: VideoFrame?
            do throws(VideoError) {
                next = try source.nextFrame()
            } catch {
                switch error {
                case .unreadableFrame, .frameSizeChanged:
                    skipped += 1
                    warn("skipped: \(error)")
                    continue
                case .truncatedFrame:
                    skipped += 1
                    warn("skipped: \(error)")
                    next = nil
                default:
                    throw error
                }
            }
            guard let frame = next else { break }
            let (start, cpuStart) = (ContinuousClock.now, Stopwatch.processCPUMilliseconds())
            let update = try tracker.process(frame)
            trackingTime += ContinuousClock.now - start
            cpuMilliseconds += Stopwatch.processCPUMilliseconds() - cpuStart
            frames += 1
            try report(update)
            if let annotate { try write(update, on: frame.image, into: annotate) }
        }
        let handler = tracker.handler
        let milliseconds = Double(trackingTime.components.seconds) * 1e3 + Double(trackingTime.components.attoseconds) * 1e-15
        warn(String(
            format: "%d frames tracked, detector on %d (%.1f%%), %d dropped, %d skipped, %.2f ms a frame (%.2f ms CPU)",
            frames, handler.detectorRunCount, frames > 0 ? 100 * Double(handler.detectorRunCount) / Double(frames) : 0,
            source.droppedFrameCount, skipped, frames > 0 ? milliseconds / Double(frames) : 0,
            frames > 0 ? cpuMilliseconds / Double(frames) : 0), prefix: "")
        if skipped > 0 {
            // As `detect` with a file it cannot read: the rest is processed, and the status says not all was.
            warn("\(skipped) of \(frames + skipped) frames could not be read", prefix: "visage: ")
            throw ExitCode(1)
        }
    }

    private func openSource() throws -> any FrameSource {
        do {
            return try VideoInput.open(
                input, width: frameSize?.width, height: frameSize?.height, frameRate: fps,
                inputArguments: inputFormat.map { ["-f", $0] } ?? [])
        } catch {
            // Without --size, standard input is read as y4m; a stream that is not is most likely raw frames.
            if input == "-", size == nil, case .corrupt(let format, let reason) = error, format == "YUV4MPEG2" {
                throw ValidationError(Self.notY4MOnStandardInput(reason))
            }
            throw error
        }
    }

    static func notY4MOnStandardInput(_ reason: String) -> String {
        "standard input is not a YUV4MPEG2 stream (\(reason)); for raw RGB24 frames give their size with --size WIDTHxHEIGHT"
    }

    private func report(_ update: FaceTrackingUpdate) throws {
        if json {
            if !eventsOnly {
                try JSONOutput.line(TrackingFrameRecord(update, includeEvents: false))
            }
            for event in update.events { try JSONOutput.line(TrackingEventRecord(event)) }
            return
        }
        if !eventsOnly {
            let faces = update.faces.map {
                String(format: "#%d at %.0f,%.0f %.0f×%.0f blink L %.2f R %.2f", $0.trackingID, $0.frame.minX, $0.frame.minY,
                       $0.frame.width, $0.frame.height, $0.eyeBlinkLeft, $0.eyeBlinkRight)
                    + ($0.analysis.gaze.map { String(format: " gaze %.0f° from camera", $0.angleFromCamera) } ?? "")
                    + ($0.hasAttention ? " watching" : "")
            }
            print(String(format: "frame %d  %.3f s  ", update.frameIndex, update.time) + (faces.isEmpty ? "no face" : faces.joined(separator: "; ")))
        }
        for event in update.events {
            let record = TrackingEventRecord(event)
            var line = String(format: "%.3f s  ", event.time) + record.event
            if let eye = record.eye, let id = record.trackingID { line += " \(eye) (face \(id))" }
            if record.event.hasPrefix("attention") { line += record.trackingID.map { " (face \($0))" } ?? " (anyone)" }
            if let amplitude = record.amplitude, let start = record.start, let duration = record.duration, let id = record.trackingID {
                line += String(format: " %.0f° from %.3f s for %.2f s (face %d)", amplitude, start, duration, id)
            }
            print(line)
        }
    }

    /// The frame with each face's box and eye corners drawn in.
    private func write(_ update: FaceTrackingUpdate, on image: Image, into folder: String) throws {
        let shapes = update.faces.flatMap { face -> [FaceAnnotation.Shape] in
            let f = face.frame
            let box = [CGPoint(x: f.minX, y: f.minY), CGPoint(x: f.maxX, y: f.minY), CGPoint(x: f.maxX, y: f.maxY), CGPoint(x: f.minX, y: f.maxY)]
            let eyes = [33, 133, 263, 362].map { index -> CGPoint in
                let p = face.analysis.mesh.pixel(index)
                return CGPoint(x: p.x, y: p.y)
            }
            return [FaceAnnotation.Shape(points: box, style: .closed), FaceAnnotation.Shape(points: eyes, style: .dots)]
        }
        let name = String(format: "frame-%06d.png", update.frameIndex)
        try FaceAnnotation.drawn([], shapes: shapes, on: image).pngData()
            .write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
    }

    private func warn(_ message: String, prefix: String = "warning: ") {
        FileHandle.standardError.write(Data((prefix + message + "\n").utf8))
    }
}
