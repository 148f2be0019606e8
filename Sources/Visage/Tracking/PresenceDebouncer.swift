/// Turns "is a face in this frame" into presence events that ignore flickers shorter than a duration.
///
/// The state starts absent and flips once the opposite observation has held, frame after frame, for
/// `duration` seconds of media time: the event comes with the first frame at least `duration` after the
/// first frame of the change. A duration of 0 reports every change on the frame it happens.
package struct PresenceDebouncer: Sendable {
    package var duration: Double
    package private(set) var isPresent = false
    /// When the observations began to disagree with the state; nil while they agree.
    private var changeStart: Double?

    package init(duration: Double) {
        self.duration = duration
    }

    /// The new state when it flips at this frame, nil otherwise.
    package mutating func update(facePresent: Bool, at time: Double) -> Bool? {
        guard facePresent != isPresent else {
            changeStart = nil
            return nil
        }
        let start = changeStart ?? time
        changeStart = start
        // A little slack so times computed as index / rate land on the frame they name.
        guard time - start >= duration - 1e-9 else { return nil }
        isPresent = facePresent
        changeStart = nil
        return facePresent
    }
}
