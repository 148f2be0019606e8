import Foundation
import Testing
import VisageImage
import VisageVideo

/// The fixtures of `Scripts/make-video-fixtures.sh` and what ffprobe said about them when they were made.
enum VideoFixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// `ffprobe -show_entries stream=…:frame=pts_time -of json vfr.mp4`, as committed.
    struct Probe: Decodable {
        struct Stream: Decodable {
            var width: Int
            var height: Int
            var r_frame_rate: String
            var nb_read_frames: String
            var start_time: String
        }
        struct Frame: Decodable { var pts_time: String }
        var streams: [Stream]
        var frames: [Frame]

        var frameCount: Int { Int(streams[0].nb_read_frames)! }
        var times: [Double] { frames.map { Double($0.pts_time)! } }
    }

    static func vfrProbe() throws -> Probe {
        try JSONDecoder().decode(Probe.self, from: Data(contentsOf: folder.appendingPathComponent("vfr.ffprobe.json")))
    }
}

/// Frames read through ffmpeg are the source's, each once, at the times ffprobe reports. These need
/// ffmpeg at run time (`apt-get install ffmpeg`) and are skipped, with the reason, without it.
@Suite(.enabled(if: FFmpegFrameSourceTests.installed, "ffmpeg and ffprobe are not on PATH (Debian: apt-get install ffmpeg)"))
struct FFmpegTimingTests {
    /// A variable-rate clip (30, 10 then 24 fps; the container claims 120 fps): the frame count is
    /// ffprobe's, every frame's index is its number in the source, and its time is ffprobe's pts_time.
    @Test func variableRateKeepsEveryFrameAtItsTime() throws {
        let probe = try VideoFixtures.vfrProbe()
        #expect(probe.streams[0].r_frame_rate == "120/1" && probe.streams[0].start_time == "0.000000")
        let source = try FFmpegFrameSource(input: VideoFixtures.path("vfr.mp4"))
        #expect(source.width == 64 && source.height == 48)
        let (frames, error) = StreamMaking.drain(source)
        #expect(error == nil)
        #expect(frames.count == probe.frameCount)
        #expect(frames.map(\.index) == Array(0..<probe.frameCount))
        try #require(frames.count == probe.times.count)
        let worst = zip(frames, probe.times).map { abs($0.time - $1) }.max() ?? .infinity
        #expect(worst <= 0.001, "largest difference from ffprobe's pts_time: \(worst) s")
        #expect(frames.allSatisfy { $0.image.width == 64 && $0.image.height == 48 })
    }

    /// A 90° display rotation (ffprobe's `rotation=90`, counterclockwise) still turns the picture:
    /// the size is swapped, and each frame is the unrotated clip's frame turned a quarter counterclockwise.
    @Test func rotationMetadataTurnsTheFrames() throws {
        let rotated = try FFmpegFrameSource(input: VideoFixtures.path("rotated.mp4"))
        #expect(rotated.width == 48 && rotated.height == 64)
        let turned = StreamMaking.drain(rotated)
        let upright = StreamMaking.drain(try FFmpegFrameSource(input: VideoFixtures.path("vfr.mp4")))
        #expect(turned.error == nil && turned.frames.count == 12)
        var worst = 0
        for (frame, original) in zip(turned.frames, upright.frames) {
            #expect(frame.image.width == 48 && frame.image.height == 64)
            #expect(abs(frame.time - original.time) < 1e-6)
            for y in 0..<64 {
                for x in 0..<48 {
                    for (a, b) in zip(frame.image.pixel(x: x, y: y), original.image.pixel(x: 63 - y, y: x)) {
                        worst = max(worst, abs(Int(a) - Int(b)))
                    }
                }
            }
        }
        // The same decoded planes, turned before the conversion to RGB (0 with ffmpeg 5.1; a release
        // whose conversion interpolated chroma could round a little differently).
        #expect(worst <= 2, "largest difference from the upright frames turned: \(worst)")
    }

    /// A given rate resamples to a constant one, and the times are still ffmpeg's: multiples of 1/rate.
    @Test func givenRateResamples() throws {
        let (frames, error) = StreamMaking.drain(try FFmpegFrameSource(input: VideoFixtures.path("vfr.mp4"), frameRate: 10))
        #expect(error == nil)
        #expect(frames.map(\.index) == Array(0..<frames.count))
        #expect((16...18).contains(frames.count), "\(frames.count) frames for 1.7 s at 10 fps")
        #expect(frames.enumerated().allSatisfy { abs($1.time - Double($0) / 10) < 1e-6 }, "\(frames.map(\.time))")
    }

    /// An audio file is a typed error, from the probe or, when a size is given and nothing is probed,
    /// from ffmpeg on the first frame; never a hang.
    @Test func audioOnlyFileHasNoVideoStream() throws {
        let path = VideoFixtures.path("audio-only.m4a")
        #expect(throws: VideoError.noVideoStream(input: path)) { try FFmpegFrameSource(input: path) }
        #expect(throws: VideoError.noVideoStream(input: path)) { try VideoInput.open(path) }
        let unprobed = try FFmpegFrameSource(input: path, width: 64, height: 48, frameRate: 10)
        #expect(throws: VideoError.noVideoStream(input: path)) { try unprobed.nextFrame() }
        #expect(try unprobed.nextFrame() == nil)
        #expect(VideoError.noVideoStream(input: "a.m4a").description == "'a.m4a' holds no video stream")
    }

    /// A source released before the end stops ffmpeg at once, even while ffmpeg is blocked writing
    /// into a full pipe (32 frames of 9 KB do not fit in 64 KB), and leaves no process behind.
    @Test(.timeLimit(.minutes(1))) func releasingTheSourceStopsFFmpeg() throws {
        var source: FFmpegFrameSource? = try FFmpegFrameSource(input: VideoFixtures.path("vfr.mp4"))
        #expect(try source?.nextFrame()?.index == 0)
        let pid = try #require(source?.processIdentifier)
        Thread.sleep(forTimeInterval: 0.5)
        let start = Date()
        source = nil
        #expect(Date().timeIntervalSince(start) < 1.5)
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "ffmpeg (pid \(pid)) is still there")
    }

    /// Real-time mode over the variable-rate clip, with a consumer slower than the clip: frames are
    /// dropped and counted, and those delivered keep their source index and time.
    @Test func realTimeModeDropsAndCounts() throws {
        let probe = try VideoFixtures.vfrProbe()
        let live = RealTimeFrameSource(try FFmpegFrameSource(input: VideoFixtures.path("vfr.mp4")), paced: true)
        var seen: [VideoFrame] = []
        while let frame = try live.nextFrame() {
            seen.append(frame)
            Thread.sleep(forTimeInterval: 0.15)
        }
        #expect(live.droppedFrameCount > 0)
        #expect(seen.count + live.droppedFrameCount == probe.frameCount)
        #expect(seen.map(\.index) == seen.map(\.index).sorted() && seen.last?.index == probe.frameCount - 1)
        #expect(seen.allSatisfy { abs($0.time - probe.times[$0.index]) <= 0.001 })
    }
}

/// How ffmpeg's log is read, on lines copied from ffmpeg 5.1 and 7.1; no ffmpeg needed.
struct FFmpegLogParsingTests {
    @Test(arguments: [
        ("[Parsed_showinfo_0 @ 0x55b8330c1b00] config in time_base: 1/90000, frame_rate: 30/1",
         FFmpegShowInfo.timeBase(numerator: 1, denominator: 90000)),
        ("[Parsed_showinfo_1 @ 0x5581] n:   1 pts:   3000 pts_time:0.0333333 pos:     1657 fmt:yuv420p sar:1/1 s:64x48 i:P iskey:0 type:B ",
         FFmpegShowInfo.frame(number: 1, pts: 3000, ptsTime: 0.0333333)),
        ("[Parsed_showinfo_0 @ 0x6] n: 123 pts:123456789 pts_time:1371.74 duration:   3000 duration_time:0.0333333 fmt:yuv420p cl:left sar:1/1 s:64x48 i:P iskey:0 type:P",
         FFmpegShowInfo.frame(number: 123, pts: 123_456_789, ptsTime: 1371.74)),
        ("[Parsed_showinfo_0 @ 0x6] n:   0 pts:NOPTS pts_time:NOPTS pos: -1 fmt:rgb24",
         FFmpegShowInfo.frame(number: 0, pts: nil, ptsTime: nil)),
    ] as [(String, FFmpegShowInfo)])
    func showInfoLines(_ line: String, _ expected: FFmpegShowInfo) {
        #expect(FFmpegShowInfo(line: line[...]) == expected)
    }

    @Test(arguments: [
        "[Parsed_showinfo_0 @ 0x55b8330c1b00] config out time_base: 0/0, frame_rate: 0/0",
        "[Parsed_showinfo_0 @ 0x55b8330c1b00]   side data - User Data Unregistered:",
        "[Parsed_showinfo_0 @ 0x55b8330c1b00] color_range:unknown color_space:unknown",
        "[Parsed_showinfo_0 @ 0x5] n:",
        "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x5] n:   1 pts:   3000 pts_time:0.0333333",
        "Stream mapping:",
    ])
    func otherLinesAreNotFrames(_ line: String) {
        #expect(FFmpegShowInfo(line: line[...]) == nil)
    }

    /// The integer pts and the time base give the time; pts_time's six digits would be 10 ms off here.
    @Test func timeComesFromTheIntegerTimestamp() throws {
        let lines = """
            Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'long.mp4':
            [Parsed_showinfo_0 @ 0x1] config in time_base: 1/90000, frame_rate: 30/1
            [Parsed_showinfo_0 @ 0x1] n:   0 pts:123456789 pts_time:1371.74 pos: 48 fmt:yuv420p
            [Parsed_showinfo_0 @ 0x1] color_range:unknown color_space:unknown color_primaries:unknown color_trc:unknown\r
            [Parsed_showinfo_0 @ 0x1] n:   1 pts:NOPTS pts_time:NOPTS pos: 48 fmt:yuv420p
            something failed
            """
        let pipe = Pipe()
        let log = FFmpegLog(descriptor: pipe.fileHandleForReading.fileDescriptor)
        pipe.fileHandleForWriting.write(Data(lines.utf8))
        try pipe.fileHandleForWriting.close()
        #expect(log.nextTimestamp() == .init(number: 0, seconds: 123_456_789.0 / 90_000))
        #expect(log.nextTimestamp() == .init(number: 1, seconds: nil))
        #expect(log.nextTimestamp() == nil)
        #expect(log.errorText == "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'long.mp4': / something failed")
        #expect(!log.reportsNoMatchingStream)
    }

    @Test(arguments: [
        ("ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 the FFmpeg developers", ["-fps_mode", "passthrough"]),
        ("ffmpeg version 7.1 Copyright (c) 2000-2024 the FFmpeg developers", ["-fps_mode", "passthrough"]),
        ("ffmpeg version 4.4.2-0ubuntu0.22.04.1 Copyright (c) 2000-2021 the FFmpeg developers", ["-vsync", "passthrough"]),
        ("ffmpeg version 5.0.1 Copyright (c) 2000-2022 the FFmpeg developers", ["-vsync", "passthrough"]),
        ("ffmpeg version N-113000-g1234abcd Copyright (c) 2000-2024 the FFmpeg developers", ["-fps_mode", "passthrough"]),
        ("", ["-fps_mode", "passthrough"]),
    ])
    func passthroughSpellingFollowsTheVersion(_ line: String, _ arguments: [String]) {
        #expect(FFmpegVersion(versionLine: line).passthroughArguments == arguments)
    }
}
