import Foundation
import VisageImage

/// Frames of a YUV4MPEG2 (`.y4m`) stream, read natively and converted to RGB8 (BT.601, see
/// ``YUVConversion``); times come from the header's frame rate.
///
/// Every header is bounded and validated, and a frame's memory grows only as its bytes arrive, so a
/// header declaring a huge frame costs nothing until the data is sent. A stream ending inside a frame
/// throws ``VideoError/truncatedFrame(index:expectedBytes:receivedBytes:)`` and then ends. A second stream
/// header mid-stream (files joined with `cat`) is accepted when it keeps the frame size and rejected with
/// ``VideoError/frameSizeChanged(index:expected:found:)`` when it does not.
///
/// ```swift
/// let source = try Y4MFrameSource(path: "clip.y4m")
/// while let frame = try source.nextFrame() { … }
/// ```
public final class Y4MFrameSource: FrameSource {
    public private(set) var header: Y4MHeader
    private let stream: ByteStream
    private var planes: [UInt8]
    private var index = 0
    private var ended = false

    package init(stream: ByteStream) throws(VideoError) {
        guard let line = try stream.readLine(maximumLength: Y4MHeader.maximumLineLength, format: Y4MHeader.format) else {
            throw .corrupt(format: Y4MHeader.format, reason: "the stream is empty")
        }
        header = try Y4MHeader(line: line)
        self.stream = stream
        planes = []
    }

    /// Opens a `.y4m` file or FIFO.
    public convenience init(path: String) throws(VideoError) {
        try self.init(stream: ByteStream(path: path))
    }

    /// Reads a y4m stream from standard input (`ffmpeg -i clip.mp4 -f yuv4mpegpipe - | …`).
    public convenience init(standardInput: Void = ()) throws(VideoError) {
        try self.init(stream: ByteStream(descriptor: 0, name: "standard input"))
    }

    public func nextFrame() throws(VideoError) -> VideoFrame? {
        guard !ended else { return nil }
        do throws(VideoError) {
            return try readFrame()
        } catch {
            ended = true
            throw error
        }
    }

    private func readFrame() throws(VideoError) -> VideoFrame? {
        var line: [UInt8]
        repeat {
            guard let next = try stream.readLine(maximumLength: Y4MHeader.maximumLineLength, format: Y4MHeader.format) else {
                ended = true
                return nil
            }
            line = next
            if line.starts(with: Array("YUV4MPEG2".utf8)) {
                let joined = try Y4MHeader(line: line)
                guard joined.width == header.width, joined.height == header.height else {
                    throw .frameSizeChanged(index: index, expected: "\(header.width)×\(header.height)", found: "\(joined.width)×\(joined.height)")
                }
                header = joined
                continue
            }
            break
        } while true
        guard line.starts(with: Array("FRAME".utf8)), line.count == 5 || line[5] == 0x20 else {
            let shown = String(decoding: line.prefix(16), as: UTF8.self)
            throw .corrupt(format: Y4MHeader.format, reason: "frame \(index) starts with '\(shown)', not 'FRAME'")
        }
        let byteCount = header.frameByteCount
        // Memory follows the bytes that arrive, not the header's claim.
        let received = try stream.readGrowing(byteCount, into: &planes)
        guard received == byteCount else {
            throw .truncatedFrame(index: index, expectedBytes: byteCount, receivedBytes: received)
        }
        let image = try convert()
        defer { index += 1 }
        return VideoFrame(image: image, index: index, time: Double(index) / header.frameRate)
    }

    private func convert() throws(VideoError) -> Image {
        let (width, height) = (header.width, header.height)
        let chroma = header.chroma.chromaSize(width: width, height: height)
        let xShift = chroma.width < width ? 1 : 0, yShift = chroma.height < height ? 1 : 0
        let conversion = YUVConversion(fullRange: header.fullRange)
        let image = planes.withUnsafeBytes { planes in
            Result { () throws(ImageError) in
                try Image(uninitializedWidth: width, height: height, pixelFormat: .rgb8) { rgb in
                    conversion.convert(
                        planes: planes, width: width, height: height, chromaWidth: chroma.width, xShift: xShift, yShift: yShift,
                        chromaHeight: chroma.height, into: rgb)
                }
            }
        }
        let frame = try image.mapError { VideoError.invalidParameter(name: "frame size", value: "\(width)×\(height)", rule: $0.description) }.get()
        // Non-square pixels are stretched to square ones, as an ffmpeg input is.
        let aspect = header.pixelAspect
        let stretched = SquarePixels.width(width, aspect: aspect)
        guard stretched != width else { return frame }
        do {
            return try frame.resized(width: stretched, height: height, method: aspect < 1 ? .area : .bilinear)
        } catch {
            throw .invalidParameter(name: "frame size", value: "\(stretched)×\(height)", rule: error.description)
        }
    }
}
