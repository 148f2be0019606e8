import Foundation
import Testing
import VisageImage
import VisageVideo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct RawRGBFrameSourceTests {
    @Test func framesFromAPipeThenTruncation() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (width, height) = (5, 3)
        let writer = fds[1]
        let thread = Thread {
            var bytes: [UInt8] = []
            for frame in 0..<3 { bytes += StreamMaking.rgbFrame(width: width, height: height, frame: frame) }
            bytes += [1, 2, 3, 4]
            // Written in small pieces so frames straddle reads.
            for chunk in stride(from: 0, to: bytes.count, by: 7) {
                _ = bytes[chunk..<min(chunk + 7, bytes.count)].withUnsafeBytes { write(writer, $0.baseAddress!, $0.count) }
            }
            close(writer)
        }
        thread.start()
        let source = try RawRGBFrameSource(stream: ByteStream(descriptor: fds[0], name: "pipe", closesDescriptor: true), width: width, height: height, frameRate: 10)
        let (frames, error) = StreamMaking.drain(source)
        #expect(frames.map(\.index) == [0, 1, 2])
        #expect(frames.map(\.time) == [0, 0.1, 0.2])
        for frame in frames {
            #expect(frame.image.packedPixels == StreamMaking.rgbFrame(width: width, height: height, frame: frame.index))
        }
        #expect(error == .truncatedFrame(index: 3, expectedBytes: 45, receivedBytes: 4))
        #expect(try source.nextFrame() == nil)
    }

    @Test func cleanEndAndFile() throws {
        let url = try StreamMaking.file(Data(StreamMaking.rgbFrame(width: 2, height: 2, frame: 7)), extension: "rgb")
        defer { try? FileManager.default.removeItem(at: url) }
        let (frames, error) = StreamMaking.drain(try RawRGBFrameSource(path: url.path, width: 2, height: 2, frameRate: 30))
        #expect(error == nil)
        #expect(frames.count == 1 && frames[0].image.pixel(x: 1, y: 1) == [1, 1, 7])
    }

    @Test(arguments: [(0, 480, 30.0), (640, -1, 30.0), (640, 480, 0.0), (640, 480, .nan), (20_000, 10, 30.0)])
    func badParameters(width: Int, height: Int, rate: Double) {
        #expect(throws: VideoError.self) { try RawRGBFrameSource(path: "/dev/null", width: width, height: height, frameRate: rate) }
    }

    @Test func inputsOpenTheirSource() throws {
        let folder = try StreamMaking.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Image(width: 2, height: 2, pixelFormat: .gray8, pixels: [1, 2, 3, 4]).pngData().write(to: folder.appendingPathComponent("a.png"))
        let y4m = folder.appendingPathComponent("clip.y4m")
        try StreamMaking.y4m(header: "W2 H2 F25:1 C444", width: 2, height: 2, chroma: (2, 2), frames: 1).write(to: y4m)
        #expect(try VideoInput.open(folder.path) is ImageFolderFrameSource)
        #expect(try VideoInput.open(y4m.path) is Y4MFrameSource)
        #expect(throws: VideoError.unreadable(path: "/nonexistent/clip.mp4", reason: "no such file or folder")) {
            try VideoInput.open("/nonexistent/clip.mp4")
        }
    }
}

struct ImageFolderFrameSourceTests {
    func png(_ width: Int, _ height: Int, value: UInt8) throws -> Data {
        try Image(width: width, height: height, pixelFormat: .rgb8, pixels: [UInt8](repeating: value, count: width * height * 3)).pngData()
    }

    @Test func numericOrderSkippableBadFramesAndSizeChange() throws {
        let folder = try StreamMaking.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try png(4, 3, value: 10).write(to: folder.appendingPathComponent("frame1.png"))
        try png(4, 3, value: 20).write(to: folder.appendingPathComponent("frame2.png"))
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("frame3.png"))
        try png(5, 3, value: 40).write(to: folder.appendingPathComponent("frame4.png"))
        try png(4, 3, value: 100).write(to: folder.appendingPathComponent("frame10.png"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))

        let source = try ImageFolderFrameSource(folder: folder, frameRate: 4)
        #expect(source.files.map(\.lastPathComponent) == ["frame1.png", "frame2.png", "frame3.png", "frame4.png", "frame10.png"])
        var values: [Int: UInt8] = [:], errors: [Int: VideoError] = [:]
        var times: [Double] = []
        for expectedIndex in 0..<5 {
            do throws(VideoError) {
                guard let frame = try source.nextFrame() else { break }
                values[frame.index] = frame.image.pixel(x: 0, y: 0)[0]
                times.append(frame.time)
            } catch {
                errors[expectedIndex] = error
            }
        }
        #expect(try source.nextFrame() == nil)
        #expect(values == [0: 10, 1: 20, 4: 100])
        #expect(times == [0, 0.25, 1.0])
        guard case .unreadableFrame(index: 2, let path, _) = errors[2] else { Issue.record("frame 2: \(String(describing: errors[2]))"); return }
        #expect(path.hasSuffix("frame3.png"))
        #expect(errors[3] == .frameSizeChanged(index: 3, expected: "4×3", found: "5×3"))
    }

    @Test func emptyFolder() throws {
        let folder = try StreamMaking.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: VideoError.emptyFolder(path: folder.path)) { try ImageFolderFrameSource(folder: folder, frameRate: 30) }
    }
}
