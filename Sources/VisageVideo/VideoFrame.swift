import VisageImage

/// One picture of a sequence: its pixels, its position in the sequence and its presentation time.
///
/// Time is media time in seconds from the first frame, so a file is processed faster than real time
/// with the same results as when it plays.
public struct VideoFrame: Sendable {
    public var image: Image
    /// Position in the source, from 0; frames a real-time source dropped leave gaps.
    public var index: Int
    /// Presentation time in seconds.
    public var time: Double

    public init(image: Image, index: Int, time: Double) {
        self.image = image
        self.index = index
        self.time = time
    }
}
