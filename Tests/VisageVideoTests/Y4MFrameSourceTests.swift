import Foundation
import Testing
import VisageImage
import VisageVideo

struct Y4MFrameSourceTests {
    struct Layout: Sendable, CustomStringConvertible {
        var tag: String
        /// log2 of the chroma subsampling across and down; nil for mono.
        var shifts: (x: Int, y: Int)?
        var alpha = false
        var description: String { tag.isEmpty ? "default" : tag }

        func chroma(_ width: Int, _ height: Int) -> (Int, Int)? {
            shifts.map { (($0.x == 1 ? (width + 1) / 2 : width), ($0.y == 1 ? (height + 1) / 2 : height)) }
        }
    }

    static let layouts: [Layout] = [
        Layout(tag: "", shifts: (1, 1)),
        Layout(tag: " C420jpeg", shifts: (1, 1)),
        Layout(tag: " C420paldv", shifts: (1, 1)),
        Layout(tag: " C420mpeg2 XCOLORRANGE=FULL", shifts: (1, 1)),
        Layout(tag: " C422", shifts: (1, 0)),
        Layout(tag: " C444", shifts: (0, 0)),
        Layout(tag: " C444alpha", shifts: (0, 0), alpha: true),
        Layout(tag: " Cmono", shifts: nil),
    ]

    /// Every pixel of every frame matches floating-point BT.601 within one level, on an odd size where
    /// the last chroma column and row cover a single luma pixel.
    @Test(arguments: layouts)
    func convertsEveryLayout(_ layout: Layout) throws {
        let (width, height, frames) = (7, 5, 3)
        let chroma = layout.chroma(width, height)
        let url = try StreamMaking.file(
            StreamMaking.y4m(header: "W7 H5 F30000:1001 Ip A1:1\(layout.tag)", width: width, height: height, chroma: chroma, frames: frames, alpha: layout.alpha),
            extension: "y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        let source = try Y4MFrameSource(path: url.path)
        let (read, error) = StreamMaking.drain(source)
        #expect(error == nil)
        #expect(read.map(\.index) == [0, 1, 2])
        let period: Double = 1001.0 / 30000
        let expectedTimes: [Double] = [0, period, 2 * period]
        #expect(read.map(\.time) == expectedTimes)
        let fullRange = layout.tag.contains("FULL")
        let (xShift, yShift) = layout.shifts ?? (0, 0)
        var worst = 0.0
        for frame in read {
            #expect(frame.image.width == width && frame.image.height == height && frame.image.pixelFormat == .rgb8)
            for y in 0..<height {
                for x in 0..<width {
                    let u = chroma == nil ? 128 : StreamMaking.cb(x >> xShift, y >> yShift, frame.index)
                    let v = chroma == nil ? 128 : StreamMaking.cr(x >> xShift, y >> yShift, frame.index)
                    let expected = StreamMaking.referenceRGB(y: StreamMaking.luma(x, y, frame.index), u: u, v: v, fullRange: fullRange)
                    for (got, want) in zip(frame.image.pixel(x: x, y: y), expected) { worst = max(worst, abs(Double(got) - want)) }
                }
            }
        }
        #expect(worst <= 1.0)
    }

    @Test func truncatedLastFrameThrowsThenEnds() throws {
        var data = StreamMaking.y4m(header: "W4 H4 F25:1 C420jpeg", width: 4, height: 4, chroma: (2, 2), frames: 3)
        data.removeLast(5)
        let url = try StreamMaking.file(data, extension: "y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        let source = try Y4MFrameSource(path: url.path)
        let (frames, error) = StreamMaking.drain(source)
        #expect(frames.count == 2)
        #expect(error == .truncatedFrame(index: 2, expectedBytes: 24, receivedBytes: 19))
        #expect(error?.description == "frame 2 is truncated: the stream ended after 19 of its 24 bytes")
        #expect(try source.nextFrame() == nil)
    }

    @Test func joinedStreamOfAnotherSizeIsRefused() throws {
        var data = StreamMaking.y4m(header: "W4 H4 F25:1", width: 4, height: 4, chroma: (2, 2), frames: 2)
        data += StreamMaking.y4m(header: "W4 H4 F25:1", width: 4, height: 4, chroma: (2, 2), frames: 1)
        data += StreamMaking.y4m(header: "W6 H4 F25:1", width: 6, height: 4, chroma: (3, 2), frames: 1)
        let url = try StreamMaking.file(data, extension: "y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        let (frames, error) = StreamMaking.drain(try Y4MFrameSource(path: url.path))
        #expect(frames.map(\.index) == [0, 1, 2])
        #expect(error == .frameSizeChanged(index: 3, expected: "4×4", found: "6×4"))
    }

    @Test func frameWithoutFrameTagIsCorrupt() throws {
        var data = StreamMaking.y4m(header: "W2 H2 F25:1 C444", width: 2, height: 2, chroma: (2, 2), frames: 1)
        data += Data("FRAMEX\n".utf8) + Data(count: 12)
        let url = try StreamMaking.file(data, extension: "y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        let (frames, error) = StreamMaking.drain(try Y4MFrameSource(path: url.path))
        #expect(frames.count == 1)
        #expect(error == .corrupt(format: "YUV4MPEG2", reason: "frame 1 starts with 'FRAMEX', not 'FRAME'"))
    }

    @Test(arguments: [
        ("W4 F25:1", VideoError.corrupt(format: "YUV4MPEG2", reason: "the header lacks a positive width (W) or height (H)")),
        ("W4 H4", .corrupt(format: "YUV4MPEG2", reason: "the header has no frame rate (F)")),
        ("W4 H4 F25:0", .corrupt(format: "YUV4MPEG2", reason: "frame rate 'F25:0' is not a ratio of two positive integers")),
        ("W4 H4 F25:1 C420p10", .unsupported(format: "YUV4MPEG2", feature: "chroma layout 'C420p10' (8-bit 420, 422, 444, 444alpha and mono are read)")),
        ("W100000 H4 F25:1", .invalidParameter(name: "frame width", value: "100000", rule: "must be in 1…16384")),
        ("W16384 H16384 F25:1", .invalidParameter(name: "frame size", value: "16384×16384", rule: "must have at most 67108864 pixels")),
        ("W0 H4 F25:1", .invalidParameter(name: "frame width", value: "0", rule: "must be in 1…16384")),
        ("W4 H4 F25:1 Q9", .corrupt(format: "YUV4MPEG2", reason: "unknown header parameter 'Q9'")),
    ])
    func badHeaders(header: String, expected: VideoError) throws {
        let url = try StreamMaking.file(Data("YUV4MPEG2 \(header)\nFRAME\n".utf8), extension: "y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: expected) { try Y4MFrameSource(path: url.path) }
    }

    @Test func endlessHeaderLineIsBounded() throws {
        let url = try StreamMaking.file(Data("YUV4MPEG2 W4 H4 ".utf8) + Data(repeating: 0x41, count: 100_000), extension: "y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: VideoError.corrupt(format: "YUV4MPEG2", reason: "a header line is longer than 1024 bytes")) {
            try Y4MFrameSource(path: url.path)
        }
    }

    @Test func notAY4MStream() throws {
        let url = try StreamMaking.file(Data("\u{89}PNG\r\n".utf8), extension: "y4m")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: VideoError.corrupt(format: "YUV4MPEG2", reason: "the stream does not start with 'YUV4MPEG2 '")) {
            try Y4MFrameSource(path: url.path)
        }
        #expect(throws: VideoError.self) { try Y4MFrameSource(path: "/nonexistent/clip.y4m") }
    }

    /// The `A` pixel aspect: 2:1 pixels come out twice as wide (square), each pair of columns reading
    /// what one stored column holds; unknown (`A0:0`) and square ones are kept as stored.
    @Test func nonSquarePixelsAreStretched() throws {
        func frames(_ aspect: String) throws -> [VideoFrame] {
            let url = try StreamMaking.file(StreamMaking.rampY4M(aspect: aspect), extension: "y4m")
            defer { try? FileManager.default.removeItem(at: url) }
            let drained = StreamMaking.drain(try Y4MFrameSource(path: url.path))
            #expect(drained.error == nil)
            return drained.frames
        }
        let square = try frames("A1:1"), unknown = try frames("A0:0"), wide = try frames("A2:1")
        #expect(square.allSatisfy { $0.image.width == 16 } && unknown.allSatisfy { $0.image.width == 16 })
        #expect(wide.count == 2 && wide.allSatisfy { $0.image.width == 32 && $0.image.height == 8 })
        var worst = 0
        for y in 0..<8 {
            for x in 1..<15 {
                let pair = zip(wide[0].image.pixel(x: 2 * x, y: y), wide[0].image.pixel(x: 2 * x + 1, y: y)).map { (Int($0) + Int($1)) / 2 }
                for (a, b) in zip(pair, square[0].image.pixel(x: x, y: y)) { worst = max(worst, abs(a - Int(b))) }
            }
        }
        #expect(worst <= 2, "worst \(worst)")
        #expect(throws: VideoError.self) { try Y4MHeader(line: Array("YUV4MPEG2 W4 H4 F25:1 Ax".utf8)) }
    }
}
