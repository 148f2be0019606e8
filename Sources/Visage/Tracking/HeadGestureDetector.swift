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
    /// Each full swing lasts between these, seconds: half a period, so 0.1…1.25 s admits 0.4–5 Hz with
    /// room for sampling (nods and shakes are 0.5–3 Hz); quicker is noise, slower is a turn.
    public var swingDuration: ClosedRange<Double>
    /// The other axis may move at most this fraction of the gesture's own swing meanwhile, so a
    /// diagonal or circular head movement is neither.
    public var crossAxisRatio: Double
    /// The two full swings of one oscillation are alike in extent: the smaller is at least this fraction
    /// of the larger. A talking head's dip followed by a throw of twice its size is not.
    public var swingSimilarity: Double
    /// ... and in rhythm: the shorter lasts at least this fraction of the longer. A jerk's quick return
    /// after a slow rise is not (looser than the extent's: sampling and dropped frames move a turning
    /// point's time by a frame or more, a large part of a 3 Hz half-period).
    public var rhythmSimilarity: Double
    /// A single frame that leaps this far (degrees) from both its neighbours while they agree, out and
    /// back within less than the quickest swing, is a tracking glitch and is replaced by their mean.
    public var spike: Double

    public init(
        minimumSwing: Double = 6, swingDuration: ClosedRange<Double> = 0.1...1.25, crossAxisRatio: Double = 0.6,
        swingSimilarity: Double = 0.6, rhythmSimilarity: Double = 0.5, spike: Double = 12
    ) {
        (self.minimumSwing, self.swingDuration, self.crossAxisRatio) = (minimumSwing, swingDuration, crossAxisRatio)
        (self.swingSimilarity, self.rhythmSimilarity, self.spike) = (swingSimilarity, rhythmSimilarity, spike)
    }
}

/// Nods (pitch) and shakes (yaw) of one face from its pose series: an oscillation of at least one full
/// cycle, that is a swing into a first turning point then two full swings back and forth (three
/// reversals), alike in extent and duration, each at least ``HeadGestureOptions/minimumSwing`` and
/// within ``HeadGestureOptions/swingDuration``.
///
/// Each axis is followed by a zigzag: the running extreme is a turning point once the angle has come
/// back from it by the minimum swing. When a third turning point is confirmed and the two full swings
/// before it are alike (``HeadGestureOptions/swingSimilarity``, ``HeadGestureOptions/rhythmSimilarity``)
/// while the other axis stayed comparatively still, one event is reported; further reversals of the
/// same back-and-forth extend it without new events. Why two alike swings: people who talk or exclaim move their heads by nod-sized
/// amounts too (the carphone man dips 10° then throws his head back 19° and down again within 0.2 s),
/// but one dip and a jerk is not an oscillation, and a jerk's quick return is not alike the swing
/// before or after it. A turning point's time is the middle of the span the angle dwells near its
/// extreme, not the extreme sample, so a flat top does not skew the swings' durations. A single-frame
/// glitch (``HeadGestureOptions/spike``) is smoothed away first, at the cost of one frame's delay.
///
/// A slow turn makes no turning point at all, or swings too slow to count; jitter below the minimum
/// swing makes none. Times are media times, so dropped frames only lower the resolution.
package struct HeadGestureDetector: Sendable {
    package enum Axis: Sendable { case pitch, yaw }

    private struct TurningPoint {
        var time: Double
        var value: Double
    }

    private struct Sample {
        var time: Double
        var pitch: Double
        var yaw: Double
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
    /// Recent cleaned samples, for the other axis's range and the dwell near each turning point.
    private var history: [Sample] = []
    /// The last raw sample, held back one frame until its successor shows whether it is a glitch.
    private var pending: Sample?

    package init(options: HeadGestureOptions = .init()) {
        self.options = options
    }

    /// Feeds one frame's angles in degrees; returns the gestures it completed. NaN angles are skipped.
    package mutating func update(time: Double, pitch pitchDegrees: Double, yaw yawDegrees: Double) -> [(Axis, HeadGesture)] {
        guard time.isFinite, pitchDegrees.isFinite, yawDegrees.isFinite else { return [] }
        let sample = Sample(time: time, pitch: pitchDegrees, yaw: yawDegrees)
        defer { pending = sample }
        guard var held = pending, time > held.time else { return [] }
        // Out and back quicker than the quickest swing is no head motion.
        if let previous = history.last, time - previous.time < options.swingDuration.lowerBound {
            held.pitch = despiked(previous.pitch, held.pitch, sample.pitch)
            held.yaw = despiked(previous.yaw, held.yaw, sample.yaw)
        }
        return feed(held)
    }

    /// The middle value unless it leaps from both neighbours, in the same direction, by the spike
    /// threshold while they agree to within the minimum swing.
    private func despiked(_ before: Double, _ value: Double, _ after: Double) -> Double {
        let agree = abs(before - after) <= options.minimumSwing
        let leap = min(value - before, value - after) >= options.spike || max(value - before, value - after) <= -options.spike
        return agree && leap ? (before + after) / 2 : value
    }

    private mutating func feed(_ sample: Sample) -> [(Axis, HeadGesture)] {
        history.append(sample)
        let keep = 6 * options.swingDuration.upperBound
        if let first = history.first, sample.time - first.time > keep {
            history.removeFirst(history.firstIndex { sample.time - $0.time <= keep } ?? history.count)
        }
        var found: [(Axis, HeadGesture)] = []
        let (threshold, window) = (options.minimumSwing, options.swingDuration.upperBound)
        if pitch.add(.init(time: sample.time, value: sample.pitch), threshold: threshold, window: window),
           let gesture = gesture(&pitch, axis: \.pitch, otherAxis: \.yaw)
        {
            found.append((.pitch, gesture))
        }
        if yaw.add(.init(time: sample.time, value: sample.yaw), threshold: threshold, window: window),
           let gesture = gesture(&yaw, axis: \.yaw, otherAxis: \.pitch)
        {
            found.append((.yaw, gesture))
        }
        return found
    }

    /// The middle of the span around a turning point where the angle stays within `tolerance` of it.
    private func dwellMiddle(_ point: TurningPoint, axis: KeyPath<Sample, Double>, tolerance: Double) -> Double {
        guard let index = history.lastIndex(where: { $0.time == point.time }) else { return point.time }
        var (first, last) = (index, index)
        while first > 0, abs(history[first - 1][keyPath: axis] - point.value) <= tolerance { first -= 1 }
        while last + 1 < history.count, abs(history[last + 1][keyPath: axis] - point.value) <= tolerance { last += 1 }
        return (history[first].time + history[last].time) / 2
    }

    /// The gesture the zigzag's last three turning points complete, if they do and it is new.
    private func gesture(
        _ zigzag: inout Zigzag, axis: KeyPath<Sample, Double>, otherAxis: KeyPath<Sample, Double>
    ) -> HeadGesture? {
        let points = zigzag.points
        guard points.count >= 4 else { return nil }
        let (a, b, c, d) = (points[points.count - 4], points[points.count - 3], points[points.count - 2], points[points.count - 1])
        let swings = [abs(c.value - b.value), abs(d.value - c.value)]
        guard swings.allSatisfy({ $0 >= options.minimumSwing }), swings.min()! >= options.swingSimilarity * swings.max()!
        else { return nil }
        // Within 15 % of the smaller swing of the extreme counts as dwelling there.
        let times = [b, c, d].map { dwellMiddle($0, axis: axis, tolerance: 0.15 * swings.min()!) }
        let durations = [times[1] - times[0], times[2] - times[1]]
        guard durations.allSatisfy({ options.swingDuration.contains($0) }),
              durations.min()! >= options.rhythmSimilarity * durations.max()!
        else { return nil }
        let during = history.filter { $0.time >= b.time && $0.time <= d.time }.map { $0[keyPath: otherAxis] }
        if let low = during.min(), let high = during.max(), high - low > options.crossAxisRatio * swings.max()! { return nil }
        // A back-and-forth already reported only extends, also after swings that fell short of the
        // rules in between (one badly sampled turning point spoils three triples): a new gesture starts
        // more than a swing's longest duration after the last one ended.
        let isNew = b.time > zigzag.reportedThrough + options.swingDuration.upperBound
        zigzag.reportedThrough = d.time
        guard isNew else { return nil }
        // The gesture starts where the motion into `b` started when that was quick, else at `b`.
        let start = b.time - a.time <= options.swingDuration.upperBound ? a.time : b.time
        return HeadGesture(start: start, duration: d.time - start, amplitude: swings.max()! / 2)
    }
}
