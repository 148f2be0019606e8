/// A producer of video frames, pulled one at a time.
///
/// Sources own file descriptors or subprocesses and keep a read position, so they are reference types
/// used from one task at a time. After a frame error, a source whose frames are independent (a folder)
/// can be asked again and continues with the next frame; a stream source ends.
///
/// ```swift
/// let source = try Y4MFrameSource(url: URL(fileURLWithPath: "clip.y4m"))
/// while let frame = try source.nextFrame() { print(frame.index, frame.time, frame.image.size) }
/// ```
public protocol FrameSource: AnyObject {
    /// The next frame, or nil at the end of the sequence.
    func nextFrame() throws(VideoError) -> VideoFrame?
    /// Frames the source discarded because its consumer was slower than real time (0 for files).
    var droppedFrameCount: Int { get }
}

extension FrameSource {
    public var droppedFrameCount: Int { 0 }
}
