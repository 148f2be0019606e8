/// The events of a face sequence from what each frame holds: presence (debounced in media time) and
/// blinks per tracked face.
///
/// Independent of the networks, so its state machines are tested on synthetic sequences. Left and
/// right: blendshape coefficients name the subject's eyes as the picture shows them; a mirrored frame
/// (a front camera's selfie view) shows the subject's left eye where a camera would show the right, so
/// with `mirrored` the two are swapped and events still name the subject's own eye.
package struct FaceEventGenerator: Sendable {
    /// One tracked face of a frame, as the generator needs it.
    package struct Observation: Sendable, Hashable {
        package var trackingID: Int
        package var eyeBlinkLeft: Float
        package var eyeBlinkRight: Float

        package init(trackingID: Int, eyeBlinkLeft: Float, eyeBlinkRight: Float) {
            (self.trackingID, self.eyeBlinkLeft, self.eyeBlinkRight) = (trackingID, eyeBlinkLeft, eyeBlinkRight)
        }
    }

    package var mirrored: Bool
    private var presence: PresenceDebouncer
    private var blinks: [Int: BlinkDetector] = [:]
    private let blinkThreshold: Float
    private let hysteresis: Float

    package init(debounce: Double = 1, blinkThreshold: Float = 0.5, hysteresis: Float = 0.15, mirrored: Bool = false) {
        presence = PresenceDebouncer(duration: debounce)
        (self.blinkThreshold, self.hysteresis, self.mirrored) = (blinkThreshold, hysteresis, mirrored)
    }

    /// The events of one frame: a presence change first, then blinks in face order.
    package mutating func update(_ faces: [Observation], time: Double, frameIndex: Int) -> [FaceTrackingEvent] {
        var events: [FaceTrackingEvent] = []
        if let present = presence.update(facePresent: !faces.isEmpty, at: time) {
            events.append(FaceTrackingEvent(kind: present ? .faceDetected : .noFaceDetected, time: time, frameIndex: frameIndex))
        }
        var next: [Int: BlinkDetector] = [:]
        for face in faces {
            var detector = blinks[face.trackingID] ?? BlinkDetector(threshold: blinkThreshold, hysteresis: hysteresis)
            let (left, right) = mirrored ? (face.eyeBlinkRight, face.eyeBlinkLeft) : (face.eyeBlinkLeft, face.eyeBlinkRight)
            if let eye = detector.update(left: left, right: right) {
                events.append(FaceTrackingEvent(kind: .blink(eye), time: time, frameIndex: frameIndex, trackingID: face.trackingID))
            }
            next[face.trackingID] = detector
        }
        // Faces no longer tracked take their eye state with them.
        blinks = next
        return events
    }
}
