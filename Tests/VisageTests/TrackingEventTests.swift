import Testing
import Visage

struct TrackingEventTests {
    /// Presence at 10 fps with a 1 s debounce: a face from frame 5, gone from frame 30 but back for the
    /// single frame 35, gone again from 36.
    @Test(arguments: [(1.0, [15: "faceDetected", 46: "noFaceDetected"]),
                      (0.0, [5: "faceDetected", 30: "noFaceDetected", 35: "faceDetected", 36: "noFaceDetected"]),
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
                #expect(event.trackingID == 7)
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
