/// A nod or a shake: when it started, how long it lasted, how far the head swung.
public struct HeadGesture: Sendable, Hashable {
    /// Media time of the turning point the gesture started from, seconds.
    public var start: Double
    /// From `start` to the turning point that completed the gesture, seconds.
    public var duration: Double
    /// Half the largest peak-to-peak swing of the gesture, degrees (a sinusoid's amplitude).
    public var amplitude: Double

    public init(start: Double, duration: Double, amplitude: Double) {
        (self.start, self.duration, self.amplitude) = (start, duration, amplitude)
    }
}

/// What counts as a nod or a shake.
public struct HeadGestureOptions: Sendable, Hashable {
    /// Smallest swing between two turning points, degrees peak to peak. Turning points are found with
    /// this as hysteresis, so jitter smaller than it never makes one.
    public var minimumSwing: Double
    /// Each swing lasts between these, seconds: quicker is noise, slower is a turn (0.5 Hz has 1 s swings).
    public var swingDuration: ClosedRange<Double>
    /// The other axis may move at most this fraction of the gesture's own swing meanwhile, so a
    /// diagonal or circular head movement is neither.
    public var crossAxisRatio: Double

    public init(minimumSwing: Double = 6, swingDuration: ClosedRange<Double> = 0.1...1.25, crossAxisRatio: Double = 0.6) {
        (self.minimumSwing, self.swingDuration, self.crossAxisRatio) = (minimumSwing, swingDuration, crossAxisRatio)
    }
}

/// Nods (pitch) and shakes (yaw) of one face from its pose series: two reversals in a row, each swing
/// at least ``HeadGestureOptions/minimumSwing`` and within ``HeadGestureOptions/swingDuration``.
///
/// Each axis is followed by a zigzag: the running extreme is a turning point once the angle has come
/// back from it by the minimum swing. When the second of two consecutive turning points is confirmed,
/// and both swings (into the first, and from it to the second) are large and quick enough while the
/// other axis stayed comparatively still, one event is reported; further reversals of the same
/// back-and-forth extend it without new events. A slow turn makes no turning point at all, or swings
/// too slow to count; jitter below the minimum swing makes none. Times are media times, so dropped
/// frames only lower the resolution.
package struct HeadGestureDetector: Sendable {
    package enum Axis: Sendable { case pitch, yaw }

    private struct TurningPoint {
        var time: Double
        var value: Double
    }

    /// One axis's zigzag.
    private struct Zigzag {
        var points: [TurningPoint] = []
        /// The running extreme since the last turning point and the direction towards it (+1 rising, −1
        /// falling, 0 not yet known).
        var extreme: TurningPoint?
        var direction = 0.0
        /// End time of the last gesture reported, so one back-and-forth gives one event.
        var reportedThrough = -Double.infinity

        /// Before the first direction is known: recent samples, whose lowest or highest becomes the first
        /// turning point once the angle has moved the minimum swing away from it.
        var recent: [TurningPoint] = []

        /// Feeds a sample; returns true when a new turning point was confirmed.
        mutating func add(_ sample: TurningPoint, threshold: Double, window: Double) -> Bool {
            guard direction != 0, let current = extreme else {
                recent.append(sample)
                recent.removeFirst(recent.firstIndex { sample.time - $0.time <= window } ?? 0)
                let low = recent.min { $0.value < $1.value }!, high = recent.max { $0.value < $1.value }!
                // The motion starts where the angle last left the extreme's neighbourhood, not at the
                // extreme of a still head's jitter, which may lie anywhere in the window.
                let near = threshold / 4
                if sample.value - low.value >= threshold {
                    (points, direction) = ([recent.last { $0.value <= low.value + near }!], 1)
                } else if high.value - sample.value >= threshold {
                    (points, direction) = ([recent.last { $0.value >= high.value - near }!], -1)
                } else {
                    return false
                }
                extreme = sample
                recent = []
                return false
            }
            if (sample.value - current.value) * direction >= 0 {
                extreme = sample
                return false
            }
            guard abs(sample.value - current.value) >= threshold else { return false }
            points.append(current)
            if points.count > 8 { points.removeFirst(points.count - 8) }
            direction = -direction
            extreme = sample
            return true
        }
    }

    package var options: HeadGestureOptions
    private var pitch = Zigzag()
    private var yaw = Zigzag()
    /// Recent samples (time, pitch, yaw), for the other axis's range during a gesture.
    private var history: [(time: Double, pitch: Double, yaw: Double)] = []

    package init(options: HeadGestureOptions = .init()) {
        self.options = options
    }

    /// Feeds one frame's angles in degrees; returns the gestures it completed. NaN angles are skipped.
    package mutating func update(time: Double, pitch pitchDegrees: Double, yaw yawDegrees: Double) -> [(Axis, HeadGesture)] {
        guard time.isFinite, pitchDegrees.isFinite, yawDegrees.isFinite else { return [] }
        history.append((time, pitchDegrees, yawDegrees))
        let keep = 4 * options.swingDuration.upperBound
        if let first = history.first, time - first.time > keep {
            history.removeFirst(history.firstIndex { time - $0.time <= keep } ?? history.count)
        }
        var found: [(Axis, HeadGesture)] = []
        if pitch.add(.init(time: time, value: pitchDegrees), threshold: options.minimumSwing, window: options.swingDuration.upperBound),
           let gesture = gesture(&pitch, otherAxis: \.yaw)
        {
            found.append((.pitch, gesture))
        }
        if yaw.add(.init(time: time, value: yawDegrees), threshold: options.minimumSwing, window: options.swingDuration.upperBound),
           let gesture = gesture(&yaw, otherAxis: \.pitch)
        {
            found.append((.yaw, gesture))
        }
        return found
    }

    /// The gesture the zigzag's last two turning points complete, if they do and it is new.
    private func gesture(_ zigzag: inout Zigzag, otherAxis: KeyPath<(time: Double, pitch: Double, yaw: Double), Double>) -> HeadGesture? {
        let points = zigzag.points
        guard points.count >= 3 else { return nil }
        let (a, b, c) = (points[points.count - 3], points[points.count - 2], points[points.count - 1])
        let swings = [abs(b.value - a.value), abs(c.value - b.value)]
        let durations = [b.time - a.time, c.time - b.time]
        guard swings.allSatisfy({ $0 >= options.minimumSwing }),
              durations.allSatisfy({ options.swingDuration.contains($0) })
        else { return nil }
        let during = history.filter { $0.time >= a.time && $0.time <= c.time }.map { $0[keyPath: otherAxis] }
        if let low = during.min(), let high = during.max(), high - low > options.crossAxisRatio * swings.max()! { return nil }
        // A back-and-forth already reported (its turning point `b` inside it) only extends.
        let isNew = a.time >= zigzag.reportedThrough
        zigzag.reportedThrough = c.time
        guard isNew else { return nil }
        // The first swing may start from rest (half a full swing): the amplitude is half the largest.
        return HeadGesture(start: a.time, duration: c.time - a.time, amplitude: swings.max()! / 2)
    }
}
