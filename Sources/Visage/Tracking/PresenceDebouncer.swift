/// Turns "is a face in this frame" into presence events that ignore flickers shorter than a duration.
///
/// The state starts unknown, so the first report comes either way: `false` once a stream has begun
/// without a face for `duration`, `true` once a face has been in view for `duration`. After that the
/// state flips once the opposite observation has held, frame after frame, for `duration` seconds of
/// media time: the event comes with the first frame at least `duration` after the first frame of the
/// change. A duration of 0 reports every change on the frame it happens (and the first frame's state).
package struct PresenceDebouncer: Sendable {
    package var duration: Double
    /// The reported state; nil until the first report.
    package private(set) var isPresent: Bool?
    /// The observation that disagrees with the state, and since when it has held; nil while they agree.
    private var pending: (present: Bool, since: Double)?

    package init(duration: Double) {
        self.duration = duration
    }

    /// The new state when it is reported at this frame, nil otherwise.
    package mutating func update(facePresent: Bool, at time: Double) -> Bool? {
        guard facePresent != isPresent else {
            pending = nil
            return nil
        }
        if pending?.present != facePresent { pending = (facePresent, time) }
        // A little slack so times computed as index / rate land on the frame they name.
        guard let since = pending?.since, time - since >= duration - 1e-9 else { return nil }
        isPresent = facePresent
        pending = nil
        return facePresent
    }
}
