import Foundation

/// Live-source mode: reads another source on its own thread as fast as it delivers and hands the
/// consumer only the newest frame, dropping those the consumer could not keep up with.
///
/// A slow pipeline then always works on the present instead of falling further behind, as a camera
/// preview must. ``droppedFrameCount`` says how many frames were discarded unseen. With `paced`, frames are
/// released no earlier than their presentation time after the first, so a file plays like a camera.
///
/// ```swift
/// let live = RealTimeFrameSource(try FFmpegFrameSource(input: "/dev/video0", inputArguments: ["-f", "v4l2"]))
/// while let frame = try live.nextFrame() { … }   // frame.index jumps over dropped frames
/// print(live.droppedFrameCount)
/// ```
/// The wrapped source belongs to the reader thread from then on; do not use it elsewhere. When this
/// source is released, the reader stops after the frame it is reading.
public final class RealTimeFrameSource: FrameSource {
    private let slot = LatestFrameSlot()

    public init(_ source: any FrameSource, paced: Bool = false) {
        let transfer = UncheckedTransfer(source: source)
        let slot = self.slot
        Thread.detachNewThread {
            let source = transfer.source
            let start = Date()
            var firstTime: Double?
            while !slot.isCancelled {
                do throws(VideoError) {
                    guard let frame = try source.nextFrame() else { break }
                    if paced {
                        let origin = firstTime ?? frame.time
                        firstTime = origin
                        let wait = (frame.time - origin) - Date().timeIntervalSince(start)
                        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                    }
                    slot.put(.success(frame))
                } catch {
                    slot.put(.failure(error))
                }
            }
            slot.finish()
        }
    }

    deinit { slot.cancel() }

    /// The newest frame not yet returned, waiting for one if none is ready; nil once the wrapped
    /// source has ended and every frame was returned or dropped.
    public func nextFrame() throws(VideoError) -> VideoFrame? {
        try slot.take()?.get()
    }

    public var droppedFrameCount: Int { slot.dropped }
}

/// Hands a non-Sendable source to the reader thread, which becomes its only user.
private struct UncheckedTransfer: @unchecked Sendable {
    let source: any FrameSource
}

/// One-frame mailbox between the reader thread and the consumer.
private final class LatestFrameSlot: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: Result<VideoFrame, VideoError>?
    private var ended = false
    private var cancelled = false
    private var dropCount = 0

    func put(_ item: Result<VideoFrame, VideoError>) {
        condition.withLock {
            if case .success = pending { dropCount += 1 }
            pending = item
            condition.signal()
        }
    }

    func finish() {
        condition.withLock {
            ended = true
            condition.signal()
        }
    }

    func cancel() { condition.withLock { cancelled = true } }

    var isCancelled: Bool { condition.withLock { cancelled } }
    var dropped: Int { condition.withLock { dropCount } }

    func take() -> Result<VideoFrame, VideoError>? {
        condition.withLock {
            while pending == nil && !ended { condition.wait() }
            defer { pending = nil }
            return pending
        }
    }
}
