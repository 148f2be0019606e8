import Testing
import Visage

struct TrackingEventTests {
    /// Presence at 10 fps: a face from frame 5, gone from frame 30 but back for the single frame 35, gone
    /// again from 36. The unknown first state is reported too once it has lasted the debounce (at once
    /// with a debounce of 0; the first 5 frames are too short for 0.5 s and 1 s).
    @Test(arguments: [(1.0, [15: "faceDetected", 46: "noFaceDetected"]),
                      (0.0, [0: "noFaceDetected", 5: "faceDetected", 30: "noFaceDetected", 35: "faceDetected", 36: "noFaceDetected"]),
                      (0.5, [10: "faceDetected", 41: "noFaceDetected"])])
    func presenceDebounceFiresAtTheExpectedFrames(debounce: Double, expected: [Int: String]) {
        var generator = FaceEventGenerator(debounce: debounce)
        var events: [Int: String] = [:]
        for frame in 0..<60 {
            let present = (5..<30).contains(frame) || frame == 35
            let faces = present ? [FaceEventGenerator.Observation(trackingID: 1, eyeBlinkLeft: 0, eyeBlinkRight: 0)] : []
            for event in generator.update(faces, time: Double(frame) / 10, frameIndex: frame) {
                #expect(event.frameIndex == frame && event.time == Double(frame) / 10 && event.trackingID == nil)
                events[frame] = event.kind == .faceDetected ? "faceDetected" : "noFaceDetected"
            }
        }
        #expect(events == expected)
    }

    /// 10 fps, debounce 1 s: no face for 1.2 s, a false detection (tracker ID 7) in frames 12–13, then
    /// the real face (tracker ID 9) from frame 15, which blinks in frames 18 (unconfirmed) and 30.
    /// Reported: `noFaceDetected` at 1.0 s, `faceDetected` at 2.5 s, one blink at 3.0 s, from face 1.
    @Test func aStreamThatStartsWithoutAFace() {
        var generator = FaceEventGenerator(debounce: 1)
        var events: [FaceTrackingEvent] = []
        var reported: [Int: Int] = [:]
        for frame in 0..<40 {
            var faces: [FaceEventGenerator.Observation] = []
            if (12...13).contains(frame) { faces.append(.init(trackingID: 7, eyeBlinkLeft: 0, eyeBlinkRight: 0)) }
            if frame >= 15 {
                let closed: Float = frame == 18 || frame == 30 ? 0.9 : 0.05
                faces.append(.init(trackingID: 9, eyeBlinkLeft: closed, eyeBlinkRight: closed))
            }
            let step = generator.step(faces, time: Double(frame) / 10, frameIndex: frame)
            #expect(step.reportedIDs.count == faces.count)
            for (face, id) in zip(faces, step.reportedIDs) { if let id { reported[face.trackingID] = id } }
            #expect(step.reportedIDs.allSatisfy { ($0 != nil) == (frame >= 25) }, "frame \(frame)")
            events += step.events
        }
        #expect(events == [
            FaceTrackingEvent(kind: .noFaceDetected, time: 1.0, frameIndex: 10),
            FaceTrackingEvent(kind: .faceDetected, time: 2.5, frameIndex: 25),
            FaceTrackingEvent(kind: .blink(.both), time: 3.0, frameIndex: 30, trackingID: 1),
        ])
        #expect(reported == [9: 1], "the flicker never surfaced, so the face the user sees is face 1")
    }

    /// A stream without any face reports its absence once, after the debounce.
    @Test func aStreamWithoutAnyFace() {
        var generator = FaceEventGenerator(debounce: 0.5)
        let events = (0..<30).flatMap { generator.update([], time: Double($0) / 30, frameIndex: $0) }
        #expect(events == [FaceTrackingEvent(kind: .noFaceDetected, time: 0.5, frameIndex: 15)])
    }

    /// IDs go to faces in the order they are first reported; a second face joining while presence
    /// holds is reported at once with the next ID, and a face the tracker keeps keeps its ID.
    @Test func reportedIDsCountFromOne() {
        var generator = FaceEventGenerator(debounce: 0.2, forgetAfter: 0.5)
        func ids(_ trackerIDs: [Int], _ frame: Int) -> [Int?] {
            generator.step(trackerIDs.map { .init(trackingID: $0, eyeBlinkLeft: 0, eyeBlinkRight: 0) }, time: Double(frame) / 10, frameIndex: frame).reportedIDs
        }
        #expect(ids([40], 0) == [nil] && ids([40], 1) == [nil])
        #expect(ids([40, 41], 2) == [1, 2])
        #expect(ids([41], 3) == [2])
        #expect(ids([40, 41, 42], 4) == [1, 2, 3])
        // Tracker ID 40 unseen for more than 0.5 s is forgotten with the tracker's own track.
        for frame in 5...11 { _ = ids([41], frame) }
        #expect(ids([41, 40], 12) == [2, 4])
    }

    static let left: [Float] = [0.1, 0.6, 0.55, 0.4, 0.3, 0.2, 0.7, 0.7, 0.1, 0.2]
    static let right: [Float] = [0.1, 0.1, 0.2, 0.1, 0.1, 0.2, 0.8, 0.3, 0.1, 0.9]

    /// Threshold 0.5 with hysteresis 0.15: 0.55 and 0.4 keep a closed eye closed, 0.3 opens it.
    @Test(arguments: [false, true])
    func blinksWithHysteresis(mirrored: Bool) {
        var generator = FaceEventGenerator(debounce: 0, blinkThreshold: 0.5, hysteresis: 0.15, mirrored: mirrored)
        var blinks: [Int: FaceTrackingEvent.Eye] = [:]
        for frame in Self.left.indices {
            let face = FaceEventGenerator.Observation(trackingID: 7, eyeBlinkLeft: Self.left[frame], eyeBlinkRight: Self.right[frame])
            for event in generator.update([face], time: Double(frame) / 30, frameIndex: frame) {
                guard case .blink(let eye) = event.kind else { continue }
                #expect(event.trackingID == 1, "tracker ID 7 is the first face reported")
                blinks[frame] = eye
            }
        }
        let (l, r): (FaceTrackingEvent.Eye, FaceTrackingEvent.Eye) = mirrored ? (.right, .left) : (.left, .right)
        #expect(blinks == [1: l, 6: .both, 9: r])
    }

    /// Blink state belongs to a face: a new face with eyes already closed blinks once; faces are independent.
    @Test func blinkStatePerFace() {
        var generator = FaceEventGenerator(debounce: 0)
        let closedA = FaceEventGenerator.Observation(trackingID: 1, eyeBlinkLeft: 0.9, eyeBlinkRight: 0.9)
        let openB = FaceEventGenerator.Observation(trackingID: 2, eyeBlinkLeft: 0, eyeBlinkRight: 0)
        let first = generator.update([closedA, openB], time: 0, frameIndex: 0)
        #expect(first.map(\.kind) == [.faceDetected, .blink(.both)] && first.last?.trackingID == 1)
        #expect(generator.update([closedA, openB], time: 0.1, frameIndex: 1).isEmpty)
        let closedB = FaceEventGenerator.Observation(trackingID: 2, eyeBlinkLeft: 0.2, eyeBlinkRight: 0.8)
        let third = generator.update([closedA, closedB], time: 0.2, frameIndex: 2)
        #expect(third == [FaceTrackingEvent(kind: .blink(.right), time: 0.2, frameIndex: 2, trackingID: 2)])
        #expect(generator.update([closedA, .init(trackingID: 2, eyeBlinkLeft: .nan, eyeBlinkRight: .nan)], time: 0.3, frameIndex: 3).isEmpty)
    }
}
