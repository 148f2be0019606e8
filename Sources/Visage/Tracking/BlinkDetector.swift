/// One face's eyes: closed when a blink coefficient reaches `threshold`, open again only when it falls
/// below `threshold − hysteresis`, so a coefficient hovering at the threshold makes one blink, not many.
package struct BlinkDetector: Sendable {
    package var threshold: Float
    package var hysteresis: Float
    package private(set) var leftClosed = false
    package private(set) var rightClosed = false

    package init(threshold: Float = 0.5, hysteresis: Float = 0.15) {
        self.threshold = threshold
        self.hysteresis = hysteresis
    }

    /// The eyes that closed at this frame: `.both` when both closed in it, nil when none did.
    package mutating func update(left: Float, right: Float) -> FaceTrackingEvent.Eye? {
        let closedLeft = step(&leftClosed, left), closedRight = step(&rightClosed, right)
        switch (closedLeft, closedRight) {
        case (true, true): return .both
        case (true, false): return .left
        case (false, true): return .right
        case (false, false): return nil
        }
    }

    /// Updates one eye; true when it just closed. A NaN coefficient changes nothing.
    private func step(_ closed: inout Bool, _ value: Float) -> Bool {
        if closed {
            if value < threshold - hysteresis { closed = false }
            return false
        }
        guard value >= threshold else { return false }
        closed = true
        return true
    }
}
