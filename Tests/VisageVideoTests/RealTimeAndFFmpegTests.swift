import Foundation
import Testing
import VisageImage
import VisageVideo

/// Numbered 1×1 frames, `interval` seconds apart in media time.
final class CountingSource: FrameSource {
    let count: Int
    let interval: Double
    private var index = 0

    init(count: Int, interval: Double) {
        (self.count, self.interval) = (count, interval)
    }

    func nextFrame() throws(VideoError) -> VideoFrame? {
        guard index < count else { return nil }
        defer { index += 1 }
        let image = try! Image(width: 1, height: 1, pixelFormat: .gray8, pixels: [UInt8(index % 256)])
        return VideoFrame(image: image, index: index, time: Double(index) * interval)
    }
}

struct RealTimeFrameSourceTests {
    /// A consumer four times slower than the source sees fewer frames, always in order, the last one
    /// included, and every frame is either seen or counted as dropped.
    @Test func slowConsumerGetsTheNewestAndCountsDrops() throws {
        let live = RealTimeFrameSource(CountingSource(count: 40, interval: 0.005), paced: true)
        var seen: [Int] = []
        while let frame = try live.nextFrame() {
            seen.append(frame.index)
            #expect(frame.image.pixel(x: 0, y: 0) == [UInt8(frame.index)])
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(seen == seen.sorted() && Set(seen).count == seen.count)
        #expect(seen.last == 39)
        #expect(live.droppedFrameCount > 0)
        #expect(seen.count + live.droppedFrameCount == 40)
    }

    @Test func fastConsumerDropsNothingWhenPaced() throws {
        let live = RealTimeFrameSource(CountingSource(count: 10, interval: 0.05), paced: true)
        var seen: [Int] = []
        while let frame = try live.nextFrame() { seen.append(frame.index) }
        #expect(seen == Array(0..<10))
        #expect(live.droppedFrameCount == 0)
    }

    @Test func errorsReachTheConsumer() throws {
        let url = try StreamMaking.file(Data("YUV4MPEG2 W2 H2 F25:1 C444\nFRAME\n".utf8) + Data(count: 5), extension: "y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        let live = RealTimeFrameSource(try Y4MFrameSource(path: url.path))
        #expect(throws: VideoError.truncatedFrame(index: 0, expectedBytes: 12, receivedBytes: 5)) { try live.nextFrame() }
        #expect(try live.nextFrame() == nil)
    }
}

struct FFmpegFrameSourceTests {
    /// Whether ffmpeg and ffprobe are on PATH, where the source looks for them.
    static let installed = ["ffmpeg", "ffprobe"].allSatisfy { tool in
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    @Test func missingFFmpegNamesThePackage() {
        let expected = VideoError.toolMissing(tool: "ffmpeg", package: "ffmpeg")
        #expect(throws: expected) { try FFmpegFrameSource(input: "clip.mp4", ffmpegPath: "/nonexistent/ffmpeg") }
        #expect(expected.description
            == "ffmpeg is needed to read this input but is not installed or not on PATH: install the package 'ffmpeg' (Debian/Ubuntu: apt-get install ffmpeg)")
        #expect(throws: VideoError.toolMissing(tool: "ffprobe", package: "ffmpeg")) {
            try FFmpegFrameSource(input: "clip.mp4", ffmpegPath: "/bin/sh", ffprobePath: "/nonexistent/ffprobe")
        }
    }

    /// ffmpeg decoding a y4m file gives the frames, size and rate the native reader gives, within
    /// swscale's rounding.
    @Test(.enabled(if: installed)) func matchesTheNativeReader() throws {
        let url = try StreamMaking.file(
            StreamMaking.y4m(header: "W16 H8 F25:1 C444", width: 16, height: 8, chroma: (16, 8), frames: 4), extension: "y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        let native = StreamMaking.drain(try Y4MFrameSource(path: url.path))
        let source = try FFmpegFrameSource(input: url.path)
        #expect(source.width == 16 && source.height == 8 && source.frameRate == 25)
        let decoded = StreamMaking.drain(source)
        #expect(native.error == nil && decoded.error == nil)
        #expect(decoded.frames.map(\.time) == native.frames.map(\.time))
        var worst = 0
        for (a, b) in zip(decoded.frames, native.frames) {
            for (x, y) in zip(a.image.packedPixels, b.image.packedPixels) { worst = max(worst, abs(Int(x) - Int(y))) }
        }
        #expect(decoded.frames.count == 4 && worst <= 3)
    }

    /// A stream with non-square pixels (sample aspect 2:1) comes out stretched to square ones, twice as
    /// wide, as the native reader stretches it (within the two scalers' interpolation).
    @Test(.enabled(if: installed)) func nonSquarePixelsAreStretched() throws {
        let url = try StreamMaking.file(StreamMaking.rampY4M(aspect: "A2:1"), extension: "y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        let native = StreamMaking.drain(try Y4MFrameSource(path: url.path))
        let source = try FFmpegFrameSource(input: url.path)
        #expect(source.width == 32 && source.height == 8)
        let decoded = StreamMaking.drain(source)
        #expect(decoded.error == nil && decoded.frames.count == 2 && decoded.frames.allSatisfy { $0.image.width == 32 && $0.image.height == 8 })
        var worst = 0
        for (a, b) in zip(decoded.frames, native.frames) {
            #expect(b.image.width == 32)
            for y in 0..<8 {
                for x in 2..<30 {
                    for (p, q) in zip(a.image.pixel(x: x, y: y), b.image.pixel(x: x, y: y)) { worst = max(worst, abs(Int(p) - Int(q))) }
                }
            }
        }
        #expect(worst <= 4, "worst \(worst)")
    }

    @Test(.enabled(if: installed)) func givenSizeIsEnforcedAndBadInputFails() throws {
        let url = try StreamMaking.file(
            StreamMaking.y4m(header: "W16 H8 F25:1 C444", width: 16, height: 8, chroma: (16, 8), frames: 2), extension: "y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        let scaled = StreamMaking.drain(try FFmpegFrameSource(input: url.path, width: 8, height: 4, frameRate: 25))
        #expect(scaled.error == nil && scaled.frames.count == 2 && scaled.frames.allSatisfy { $0.image.width == 8 && $0.image.height == 4 })

        let garbage = try StreamMaking.file(Data(repeating: 7, count: 1000), extension: "mp4")
        defer { try? FileManager.default.removeItem(at: garbage) }
        #expect {
            try FFmpegFrameSource(input: garbage.path)
        } throws: { error in
            guard case .toolFailed(tool: "ffprobe", _) = error as? VideoError else { return false }
            return true
        }
        // With the size given no probe runs: ffmpeg itself fails, and says so on the first frame.
        let forced = try FFmpegFrameSource(input: garbage.path, width: 8, height: 8, frameRate: 10)
        #expect {
            _ = try forced.nextFrame()
        } throws: { error in
            guard case .toolFailed(tool: "ffmpeg", _) = error as? VideoError else { return false }
            return true
        }
    }
}
