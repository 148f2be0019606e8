import Foundation
import Testing
import Visage

/// Attention events on synthetic sequences (what each frame's face gives the generator, no pictures).
struct AttentionEventTests {
    typealias Observation = FaceEventGenerator.Observation

    static func face(_ id: Int, head: Double, gaze: Double, eyes: Double = 0.85) -> Observation {
        Observation(trackingID: id, eyeBlinkLeft: 0, eyeBlinkRight: 0, headAngle: head, gazeAngle: gaze, eyeOpenness: eyes)
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

    /// A face that comes into a stream begun without one, watching from its first frame: attention (0.5 s)
    /// would settle before presence (1 s), but "someone is watching" is never said while "no face" stands,
    /// so anyone's attention is gained with the face's, right after `faceDetected`.
    @Test func attentionIsNotGainedBeforePresence() {
        let events = Self.run(50) { $0 < 20 ? [] : [Self.face(3, head: 0, gaze: 0)] }
        #expect(events == [
            10: ["noFaceDetected", "attentionLost"],
            30: ["faceDetected", "attentionGained", "attentionGained 1"],
        ])
    }

    /// The options choose what watching means: without the gaze cone, eyes down still watch.
    @Test func conesAreOptional() {
        let lookingDown = AttentionOptions(gazeCone: nil, headCone: 30, minimumDuration: 0.5)
        #expect(lookingDown.isWatching(headAngle: 10, gazeAngle: 35, eyeOpenness: 0.8))
        #expect(!AttentionOptions().isWatching(headAngle: 10, gazeAngle: 35, eyeOpenness: 0.8))
        #expect(!AttentionOptions().isWatching(headAngle: .nan, gazeAngle: 0, eyeOpenness: 0.8), "unknown never watches")
        #expect(!AttentionOptions().isWatching(headAngle: 0, gazeAngle: 0, eyeOpenness: .nan), "unknown never watches")
        #expect(AttentionOptions(gazeCone: nil, headCone: nil, eyeOpenness: nil).isWatching(headAngle: .nan, gazeAngle: .nan, eyeOpenness: .nan))
        let events = Self.run(40, options: lookingDown) { _ in [Self.face(1, head: 10, gaze: 35)] }
        #expect(events == [10: ["faceDetected", "attentionGained", "attentionGained 1"]])
    }

    /// Eyes shut or lowered (openness under 0.5 iris diameters) are not watching even with the gaze
    /// inside its cone once they have stayed so for the blink tolerance (0.25 s), so attention is lost
    /// within the minimum duration plus 0.3 s; a blink (three frames, 0.2 s) changes nothing, even
    /// before attention is first gained; without the lid condition the lowered eyes watch.
    @Test func loweredLidsAreNotWatchingButBlinksAre() {
        let eyes = { (frame: Int) -> Double in
            switch frame {
            case 3..<6, 20..<23: 0.1   // blinks
            case 40..<60: 0.35          // looking down through lowered lids, the mesh's gaze still 12°
            default: 0.85
            }
        }
        let events = Self.run(80) { [Self.face(1, head: 5, gaze: 12, eyes: eyes($0))] }
        #expect(events == [
            10: ["faceDetected", "attentionGained", "attentionGained 1"],
            48: ["attentionLost", "attentionLost 1"],
            65: ["attentionGained", "attentionGained 1"],
        ])
        // A closure longer than the tolerance and the minimum duration together is eyes shut.
        let shut = Self.run(40) { [Self.face(1, head: 5, gaze: 12, eyes: (20..<29).contains($0) ? 0.1 : 0.85)] }
        #expect(shut == [10: ["faceDetected", "attentionGained", "attentionGained 1"], 28: ["attentionLost", "attentionLost 1"],
                         34: ["attentionGained", "attentionGained 1"]])
        let lidsIgnored = Self.run(80, options: AttentionOptions(eyeOpenness: nil)) { [Self.face(1, head: 5, gaze: 12, eyes: eyes($0))] }
        #expect(lidsIgnored == [10: ["faceDetected", "attentionGained", "attentionGained 1"]])
        // The more open eye counts: a wink, or one eye hidden, leaves the face watching.
        let winking = EyeOpenness(left: 0.05, right: 0.8)
        #expect(AttentionOptions().isWatching(headAngle: 5, gazeAngle: 12, eyeOpenness: winking.larger))
        #expect(EyeOpenness(left: .nan, right: 0.8).larger.isNaN)
    }

    /// Openness from a mesh: the lids' middle points over the iris circle's diameter, in upright pixels.
    @Test func eyeOpennessFromTheMesh() throws {
        var points = [SIMD3<Float>](repeating: .zero, count: FaceMesh.pointCount)
        // A 200×100 picture; normalized coordinates. Right eye: iris radius 5 px, lids 8 px apart.
        func place(_ index: Int, _ x: Double, _ y: Double) { points[index] = SIMD3(Float(x / 200), Float(y / 100), 0) }
        place(468, 50, 50)
        for (index, (dx, dy)) in zip([469, 470, 471, 472], [(5.0, 0.0), (0, -5), (-5, 0), (0, 5)]) { place(index, 50 + dx, 50 + dy) }
        place(159, 50, 46)
        place(145, 50, 54)
        // Left eye: iris radius 4 px, lids 2 px apart (nearly shut).
        place(473, 150, 50)
        for (index, (dx, dy)) in zip([474, 475, 476, 477], [(4.0, 0.0), (0, -4), (-4, 0), (0, 4)]) { place(index, 150 + dx, 50 + dy) }
        place(386, 150, 49)
        place(374, 150, 51)
        let openness = try #require(EyeOpenness(mesh: FaceMesh(points: points, presence: 1, imageWidth: 200, imageHeight: 100)))
        #expect(abs(openness.right - 0.8) < 1e-5)
        #expect(abs(openness.left - 0.25) < 1e-5)
        #expect(abs(openness.larger - 0.8) < 1e-5)
        #expect(EyeOpenness(mesh: FaceMesh(points: Array(points.prefix(468)), presence: 1, imageWidth: 200, imageHeight: 100)) == nil)
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
