import Foundation
import VisageImage

/// Headerless RGB24 frames (`width × height × 3` bytes each, rows top to bottom) from a file, a pipe or
/// standard input: what `ffmpeg -f rawvideo -pix_fmt rgb24 -` writes.
///
/// ```swift
/// // ffmpeg -i clip.mp4 -f rawvideo -pix_fmt rgb24 - | my-tool
/// let source = try RawRGBFrameSource(standardInputWidth: 640, height: 480, frameRate: 30)
/// ```
public final class RawRGBFrameSource: FrameSource {
    public let width: Int
    public let height: Int
    public let frameRate: Double
    private let stream: ByteStream
    private var pixels: [UInt8] = []
    private var index = 0
    private var ended = false

    /// Reads frames from `stream`.
    /// - Throws: ``VideoError/invalidParameter(name:value:rule:)`` for a size or rate outside ``FrameLimits``.
    package init(stream: ByteStream, width: Int, height: Int, frameRate: Double) throws(VideoError) {
        try FrameLimits.validate(width: width, height: height, frameRate: frameRate)
        (self.width, self.height, self.frameRate) = (width, height, frameRate)
        self.stream = stream
    }

    /// Reads frames from a file or FIFO.
    public convenience init(path: String, width: Int, height: Int, frameRate: Double) throws(VideoError) {
        try FrameLimits.validate(width: width, height: height, frameRate: frameRate)
        try self.init(stream: ByteStream(path: path), width: width, height: height, frameRate: frameRate)
    }

    /// Reads frames from standard input.
    public convenience init(standardInputWidth width: Int, height: Int, frameRate: Double) throws(VideoError) {
        try self.init(stream: ByteStream(descriptor: 0, name: "standard input"), width: width, height: height, frameRate: frameRate)
    }

    /// The next frame; nil at a clean end of the stream.
    /// - Throws: ``VideoError/truncatedFrame(index:expectedBytes:receivedBytes:)`` when the stream ends
    ///   inside a frame (the source then ends).
    public func nextFrame() throws(VideoError) -> VideoFrame? {
        guard !ended else { return nil }
        let byteCount = width * height * 3
        let received: Int
        do throws(VideoError) {
            // Memory follows the bytes that arrive, not the frame size the caller declared.
            received = try stream.readGrowing(byteCount, into: &pixels)
        } catch {
            ended = true
            throw error
        }
        guard received == byteCount else {
            ended = true
            if received == 0 { return nil }
            throw .truncatedFrame(index: index, expectedBytes: byteCount, receivedBytes: received)
        }
        let image = try pixels.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in
                try Image(uninitializedWidth: width, height: height, pixelFormat: .rgb8) { $0.copyMemory(from: bytes) }
            }
        }.mapError { VideoError.invalidParameter(name: "frame size", value: "\(width)×\(height)", rule: $0.description) }.get()
        defer { index += 1 }
        return VideoFrame(image: image, index: index, time: Double(index) / frameRate)
    }
}
