import Foundation
import Testing
import Visage

/// Attention events on synthetic sequences (what each frame's face gives the generator, no pictures).
struct AttentionEventTests {
    typealias Observation = FaceEventGenerator.Observation

    static func face(_ id: Int, head: Double, gaze: Double) -> Observation {
        Observation(trackingID: id, eyeBlinkLeft: 0, eyeBlinkRight: 0, headAngle: head, gazeAngle: gaze)
    }

    static func name(_ event: FaceTrackingEvent) -> String {
        let kind = switch event.kind {
        case .faceDetected: "faceDetected"
        case .noFaceDetected: "noFaceDetected"
        case .attentionGained: "attentionGained"
        case .attentionLost: "attentionLost"
        default: "other"
        }
        return kind + (event.trackingID.map { " \($0)" } ?? "")
    }

    /// Runs `frames` frames at 10 fps through a generator with a 1 s presence debounce and default
    /// attention (gaze 22°, head 30°, 0.5 s); events by frame.
    static func run(_ frames: Int, options: AttentionOptions = .init(), faces: (Int) -> [Observation]) -> [Int: [String]] {
        var generator = FaceEventGenerator(debounce: 1, attention: options)
        var events: [Int: [String]] = [:]
        for frame in 0..<frames {
            for event in generator.update(faces(frame), time: Double(frame) / 10, frameIndex: frame) {
                events[frame, default: []].append(name(event))
            }
        }
        return events
    }

    /// A face in view from the start: watching, turned away (head 50°), back, then looking down at a
    /// phone (head 10°, eyes 35° off), then gone. Attention follows 0.5 s after each change while
    /// presence does not change until the face leaves.
    @Test func turningAwayAndLookingDownLoseAttentionWhilePresent() {
        let events = Self.run(120) { frame in
            switch frame {
            case 0..<30, 50..<70: [Self.face(4, head: 5, gaze: 5)]
            case 30..<50: [Self.face(4, head: 50, gaze: 40)]
            case 70..<90: [Self.face(4, head: 10, gaze: 35)]
            default: []
            }
        }
        #expect(events == [
            10: ["faceDetected", "attentionGained", "attentionGained 1"],
            35: ["attentionLost", "attentionLost 1"],
            55: ["attentionGained", "attentionGained 1"],
            75: ["attentionLost", "attentionLost 1"],
            100: ["noFaceDetected"],
        ])
    }

    /// A face that leaves while watching loses attention once it has been gone 0.5 s (or forgotten by
    /// the tracker, whichever is first), once.
    @Test func leavingWhileWatchingLosesAttentionOnce() {
        let events = Self.run(80) { $0 < 40 ? [Self.face(2, head: 0, gaze: 0)] : [] }
        let lost = events.flatMap { frame, names in names.filter { $0 == "attentionLost 1" }.map { _ in frame } }
        #expect(lost.count == 1 && (44...45).contains(lost[0]), "\(events)")
        #expect(events[45]?.contains("attentionLost") == true)
        #expect(events[50] == ["noFaceDetected"])
    }

    /// Two faces: one looks away, the other keeps watching, so anyone keeps attention.
    @Test func anyoneKeepsAttentionWhileOneFaceWatches() {
        let events = Self.run(60) { frame in
            [Self.face(1, head: 0, gaze: 0), Self.face(2, head: frame < 20 ? 0 : 60, gaze: 0)]
        }
        #expect(events == [10: ["faceDetected", "attentionGained", "attentionGained 1", "attentionGained 2"], 25: ["attentionLost 2"]])
    }

    /// Without faces, absence comes first and anyone's attention is lost in the same frame; a blink of a
    /// glance shorter than the minimum duration changes nothing.
    @Test func noFaceAndShortGlances() {
        #expect(Self.run(20) { _ in [] } == [10: ["noFaceDetected", "attentionLost"]])
        let events = Self.run(60) { frame in
            [Self.face(1, head: (20..<24).contains(frame) ? 0 : 60, gaze: 0)]
        }
        #expect(events == [10: ["faceDetected", "attentionLost"]], "a face that never watched has nothing to lose")
    }

    /// The options choose what watching means: without the gaze cone, eyes down still watch.
    @Test func conesAreOptional() {
        let lookingDown = AttentionOptions(gazeCone: nil, headCone: 30, minimumDuration: 0.5)
        #expect(lookingDown.isWatching(headAngle: 10, gazeAngle: 35))
        #expect(!AttentionOptions().isWatching(headAngle: 10, gazeAngle: 35))
        #expect(!AttentionOptions().isWatching(headAngle: .nan, gazeAngle: 0), "unknown never watches")
        #expect(AttentionOptions(gazeCone: nil, headCone: nil).isWatching(headAngle: .nan, gazeAngle: .nan))
        let events = Self.run(40, options: lookingDown) { _ in [Self.face(1, head: 10, gaze: 35)] }
        #expect(events == [10: ["faceDetected", "attentionGained", "attentionGained 1"]])
    }

    /// The head's angle from the camera is measured towards the camera, not along the axis: a face off
    /// to the side that turns to the camera is at 0°.
    @Test func headAngleIsFromTheCameraDirection() {
        let (x, z) = (20.0, -50.0)
        let yaw = atan2(-x, -z)  // the face's +z towards the camera: (−x, 0, −z) normalized
        let (s, c) = (sin(yaw), cos(yaw))
        let facing = HeadPose(transform: [c, 0, s, x, 0, 1, 0, 0, -s, 0, c, z, 0, 0, 0, 1])
        #expect(facing.angleFromCamera < 1e-9)
        let straight = HeadPose(transform: [1, 0, 0, x, 0, 1, 0, 0, 0, 0, 1, z, 0, 0, 0, 1])
        #expect(abs(straight.angleFromCamera - atan(20.0 / 50) * 180 / .pi) < 1e-9)
    }
}
