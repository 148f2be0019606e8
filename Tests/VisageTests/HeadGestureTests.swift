import Foundation
import Testing
import Visage

/// Nods and shakes on synthetic pose series with known answers.
@Suite struct HeadGestureTests {
    /// A seeded generator, so noise and drops are the same on every run.
    struct Noise {
        var state: UInt64
        mutating func uniform() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func gaussian(_ sigma: Double) -> Double {
            sigma * (-2 * log(max(uniform(), 1e-300))).squareRoot() * cos(2 * .pi * uniform())
        }
    }

    /// Events of a series sampled at `fps` for `seconds`; `angles(t)` gives (pitch, yaw) in degrees.
    static func run(
        seconds: Double, fps: Double = 30, dropping: Double = 0, noise sigma: Double = 0, seed: UInt64 = 1,
        _ angles: (Double) -> (pitch: Double, yaw: Double)
    ) -> [(HeadGestureDetector.Axis, HeadGesture)] {
        var detector = HeadGestureDetector()
        var noise = Noise(state: seed)
        var found: [(HeadGestureDetector.Axis, HeadGesture)] = []
        for frame in 0..<Int(seconds * fps) {
            let t = Double(frame) / fps
            if dropping > 0, noise.uniform() < dropping { continue }
            let (pitch, yaw) = angles(t)
            found += detector.update(time: t, pitch: pitch + noise.gaussian(sigma), yaw: yaw + noise.gaussian(sigma))
        }
        return found
    }

    /// Still for 0.5 s, `cycles` periods of a sinusoid, still again.
    static func sinusoid(frequency: Double, amplitude: Double, cycles: Double = 2) -> (Double) -> Double {
        { t in
            let u = t - 0.5
            return u < 0 || u > cycles / frequency ? 0 : amplitude * sin(2 * .pi * frequency * u)
        }
    }

    @Test(arguments: [0.5, 1, 2, 3])
    func sinusoidalNodsAndShakesAreAllFound(frequency: Double) {
        for amplitude in [8.0, 15, 30] {
            let wave = Self.sinusoid(frequency: frequency, amplitude: amplitude)
            let seconds = 1 + 2 / frequency
            let nods = Self.run(seconds: seconds) { (wave($0), 0) }
            let shakes = Self.run(seconds: seconds) { (0, wave($0)) }
            for (found, axis) in [(nods, HeadGestureDetector.Axis.pitch), (shakes, .yaw)] {
                #expect(found.count == 1, "\(frequency) Hz \(amplitude)°: \(found.count) events")
                guard let (foundAxis, gesture) = found.first else { continue }
                #expect(foundAxis == axis)
                // Sampling at 30 fps misses a 3 Hz peak by at most 1 − cos(π·3/30) ≈ 5 %.
                #expect(abs(gesture.amplitude - amplitude) <= 0.06 * amplitude, "\(frequency) Hz: amplitude \(gesture.amplitude)")
                // From the start of the motion to the third peak, which completes two full swings: five
                // quarters of a period. (The start is where the angle left its rest by a quarter of the
                // minimum swing.)
                #expect(abs(gesture.start - 0.5) <= 0.1, "start \(gesture.start)")
                #expect(abs(gesture.duration - 1.25 / frequency) <= 0.1, "duration \(gesture.duration)")
            }
        }
    }

    /// 0.5–3 Hz in steps of 0.25, 8–30°, two and three cycles, over a slow drift of the other axis,
    /// with noise and frame drops: one event each, nods and shakes alike, except where 40 % of the
    /// frames are dropped at random and whole peaks of a 2.5–3 Hz oscillation go unsampled (44 nods and
    /// 45 shakes of the 660 such series each; at most 15 % allowed).
    @Test(arguments: [HeadGestureDetector.Axis.pitch, .yaw])
    func sweepOfRatesAmplitudesNoiseAndDrops(axis: HeadGestureDetector.Axis) {
        var misses: [(dropping: Double, description: String)] = []
        var heavy = 0
        for frequency in stride(from: 0.5, through: 3.0, by: 0.25) {
            for amplitude in [8.0, 10, 15, 22, 30] {
                for (dropping, sigma) in [(0.0, 0.0), (0.0, 1.0), (0.2, 0.5), (0.4, 0.0), (0.4, 1.0)] {
                    for seed in 1...3 as ClosedRange<UInt64> {
                        for cycles in [2.0, 3.0] {
                            let wave = Self.sinusoid(frequency: frequency, amplitude: amplitude, cycles: cycles)
                            let found = Self.run(seconds: 1.5 + cycles / frequency, dropping: dropping, noise: sigma, seed: seed) {
                                axis == .pitch ? (wave($0), 0.3 * $0) : (0.3 * $0, wave($0))
                            }
                            if dropping >= 0.4 { heavy += 1 }
                            if found.count != 1 || found.first?.0 != axis {
                                misses.append((dropping, "\(frequency) Hz \(amplitude)° \(cycles) cycles, drops \(dropping), σ \(sigma), seed \(seed): \(found.count) events"))
                            }
                        }
                    }
                }
            }
        }
        #expect(misses.filter { $0.dropping < 0.4 }.isEmpty, "\(misses.filter { $0.dropping < 0.4 }.map(\.description))")
        let heavyMisses = misses.filter { $0.dropping >= 0.4 }.count
        #expect(Double(heavyMisses) <= 0.15 * Double(heavy), "\(heavyMisses) of \(heavy) with 40 % drops")
    }

    @Test func slowTurnsGiveNone() {
        // Turn 60° over 3 s and back; a slow 0.2 Hz scan of ±30°; a step to the side held there.
        #expect(Self.run(seconds: 7) { t in (0, 60 * min(t, 6 - t, 3) / 3) }.isEmpty)
        #expect(Self.run(seconds: 12) { t in (5 * sin(2 * .pi * 0.2 * t), 30 * sin(2 * .pi * 0.2 * t)) }.isEmpty)
        #expect(Self.run(seconds: 4) { t in (t < 1 ? 0 : 20, t < 2 ? 0 : -25) }.isEmpty)
    }

    /// A talking head's dip then jerk (the carphone man: 10° down, then thrown back 19° and down again
    /// within 0.3 s) is one swing and a spike, not an oscillation.
    @Test func aDipThenAJerkIsNoNod() {
        let dipThenJerk = { (t: Double) -> Double in
            switch t {
            case ..<0.5: 0
            case ..<0.9: -10 * (t - 0.5) / 0.4
            case ..<1.3: -10 + 10 * (t - 0.9) / 0.4
            case ..<1.7: 0
            case ..<1.85: 19 * (t - 1.7) / 0.15
            case ..<2.0: 19 - 19 * (t - 1.85) / 0.15
            default: 0
            }
        }
        #expect(Self.run(seconds: 4) { (dipThenJerk($0), 0) }.isEmpty)
        #expect(Self.run(seconds: 4) { (0, dipThenJerk($0)) }.isEmpty)
        // Throwing the head back then bobbing: the quick return is not alike the slow swings around it.
        let bob = { (t: Double) -> Double in
            switch t {
            case ..<0.5: 0
            case ..<1.3: 19 * (t - 0.5) / 0.8
            case ..<1.5: 19 - 15 * (t - 1.3) / 0.2
            case ..<2.1: 4 + 12 * (t - 1.5) / 0.6
            case ..<2.4: 16 - 6 * (t - 2.1) / 0.3
            default: 10
            }
        }
        #expect(Self.run(seconds: 4) { (bob($0), 0) }.isEmpty)
    }

    /// Looking down at a phone and back up, twice: quick one-sided steps with long holds between are
    /// not swings of an oscillation (a guard: the turning points sit in the middle of each hold, so the
    /// swings last as long as the holds).
    @Test func oneSidedStepsAreNoNod() {
        let steps = { (t: Double) -> Double in
            let phase = t.truncatingRemainder(dividingBy: 3)
            return phase < 1.5 ? 0 : -20
        }
        #expect(Self.run(seconds: 9) { (steps($0), 0) }.isEmpty)
        #expect(Self.run(seconds: 9, noise: 0.5, seed: 3) { (0, steps($0)) }.isEmpty)
        // A single step and hold, either way.
        #expect(Self.run(seconds: 4) { t in (t < 1 ? 0 : 15, 0) }.isEmpty)
    }

    /// Single-frame tracking glitches of the pitch by ±20° (every 0.77 s, alternating) neither make
    /// gestures out of a still head, whose glitches would otherwise zigzag with a nod's rhythm, nor hide
    /// a nod.
    @Test func singleFrameGlitchesAreSmoothedAway() {
        let glitched = { (angles: @escaping (Double) -> (pitch: Double, yaw: Double)) in
            { (t: Double) -> (pitch: Double, yaw: Double) in
                let frame = Int((t * 30).rounded())
                guard frame % 23 == 5 else { return angles(t) }
                let sign: Double = (frame / 23) % 2 == 0 ? 1 : -1
                let (pitch, yaw) = angles(t)
                return (pitch + 20 * sign, yaw)
            }
        }
        for seed in 1...5 as ClosedRange<UInt64> {
            #expect(Self.run(seconds: 20, noise: 1, seed: seed, glitched { _ in (0, 0) }).isEmpty)
        }
        let wave = Self.sinusoid(frequency: 1.5, amplitude: 10)
        let found = Self.run(seconds: 3, noise: 1, seed: 7, glitched { (wave($0), 0) })
        #expect(found.count == 1 && found.first?.0 == .pitch, "\(found)")
    }

    /// A nod whose swings die away (each 20 % smaller than the last) is still one nod.
    @Test func aDecayingNodIsFound() {
        let found = Self.run(seconds: 4) { t in
            let u = t - 0.5
            return (u < 0 || u > 2 ? 0 : 15 * pow(0.8, 2 * u) * sin(2 * .pi * u), 0)
        }
        #expect(found.count == 1 && found.first?.0 == .pitch, "\(found)")
    }

    @Test func noiseAloneGivesNoneAndDoesNotHideGestures() {
        for seed in 1...5 as ClosedRange<UInt64> {
            #expect(Self.run(seconds: 30, noise: 1, seed: seed) { _ in (0, 0) }.isEmpty)
        }
        let wave = Self.sinusoid(frequency: 1.5, amplitude: 10)
        let found = Self.run(seconds: 3, noise: 1, seed: 7) { (wave($0), 0) }
        #expect(found.count == 1 && found.first?.0 == .pitch)
    }

    @Test func frameDropsAndLowFrameRates() {
        let wave = Self.sinusoid(frequency: 1, amplitude: 12)
        for seed in 1...5 as ClosedRange<UInt64> {
            let found = Self.run(seconds: 3, dropping: 0.4, seed: seed) { (0, wave($0)) }
            #expect(found.count == 1 && found.first?.0 == .yaw, "seed \(seed): \(found.count)")
        }
        #expect(Self.run(seconds: 3, fps: 12) { (wave($0), 0) }.count == 1)
    }

    @Test func circlingTheHeadIsNeither() {
        let found = Self.run(seconds: 4) { t in (15 * sin(2 * .pi * t), 15 * cos(2 * .pi * t)) }
        #expect(found.isEmpty)
    }

    @Test func oneEventPerBackAndForthAndANewOneAfterAPause() {
        let wave = Self.sinusoid(frequency: 1, amplitude: 12, cycles: 5)
        #expect(Self.run(seconds: 6) { (wave($0), 0) }.count == 1)
        // Two nods of two cycles with two still seconds between them.
        let short = Self.sinusoid(frequency: 1, amplitude: 12, cycles: 2)
        let twice = Self.run(seconds: 9) { t in (t < 4.5 ? short(t) : short(t - 4.5), 0) }
        #expect(twice.count == 2)
    }

    @Test func trackerEventsAndTheirRecord() throws {
        var generator = FaceEventGenerator(debounce: 0)
        let wave = Self.sinusoid(frequency: 2, amplitude: 10)
        var events: [FaceTrackingEvent] = []
        for frame in 0..<60 {
            let t = Double(frame) / 30
            events += generator.update([.init(trackingID: 7, eyeBlinkLeft: 0, eyeBlinkRight: 0, pitch: 0, yaw: wave(t))], time: t, frameIndex: frame)
        }
        #expect(events.map(\.kind).first == .faceDetected)
        let shake = try #require(events.last)
        guard case .shake(let gesture) = shake.kind else {
            Issue.record("no shake: \(events)")
            return
        }
        #expect(shake.trackingID == 1)
        let record = TrackingEventRecord(shake)
        #expect(record.event == "shake" && record.trackingID == 1 && record.eye == nil)
        #expect(record.start == gesture.start && record.duration == gesture.duration && record.amplitude == gesture.amplitude)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any]
        #expect(Set(json?.keys.map { $0 } ?? []) == ["event", "trackingID", "time", "start", "duration", "amplitude"])
    }
}
