/// The events of a face sequence from what each frame holds: presence (debounced in media time),
/// which faces are reported and under which tracking ID, blinks, nods and shakes per reported face, and
/// attention (``AttentionDebouncer``) when given ``AttentionOptions``.
///
/// Presence starts unknown and is always reported first: `noFaceDetected` once a stream has begun
/// without a face for the debounce, `faceDetected` once a face has been in view for it. Faces are
/// reported only while presence is: a face seen before its presence is confirmed is a candidate, with
/// no ID and no events, so a detection that flickers for a few frames never surfaces. Reported faces
/// get IDs 1, 2, 3 … in the order they are first reported, and every event of a face comes after the
/// `faceDetected` that made it visible.
///
/// Independent of the networks, so its state machines are tested on synthetic sequences. Left and
/// right: blendshape coefficients name the subject's eyes as the picture shows them; a mirrored frame
/// (a front camera's selfie view) shows the subject's left eye where a camera would show the right, so
/// with `mirrored` the two are swapped and events still name the subject's own eye.
package struct FaceEventGenerator: Sendable {
    /// One tracked face of a frame, as the generator needs it.
    package struct Observation: Sendable, Hashable {
        /// The tracker's own ID for the face (``SequenceRequestHandler``'s), stable while it is tracked.
        package var trackingID: Int
        package var eyeBlinkLeft: Float
        package var eyeBlinkRight: Float
        /// Head pitch and yaw in degrees (``HeadPose``); NaN when unknown.
        package var pitch: Double
        package var yaw: Double
        /// Degrees between where the head points and the camera (``HeadPose/angleFromCamera``), and
        /// between the line of sight and the camera (``FaceGaze/angleFromCamera``); NaN when unknown.
        package var headAngle: Double
        package var gazeAngle: Double
        /// The more open eye's lid aperture in iris diameters (``EyeOpenness/larger``); NaN when unknown.
        package var eyeOpenness: Double

        package init(
            trackingID: Int, eyeBlinkLeft: Float, eyeBlinkRight: Float, pitch: Double = .nan, yaw: Double = .nan,
            headAngle: Double = .nan, gazeAngle: Double = .nan, eyeOpenness: Double = .nan
        ) {
            (self.trackingID, self.eyeBlinkLeft, self.eyeBlinkRight) = (trackingID, eyeBlinkLeft, eyeBlinkRight)
            (self.pitch, self.yaw, self.headAngle, self.gazeAngle, self.eyeOpenness) = (pitch, yaw, headAngle, gazeAngle, eyeOpenness)
        }
    }

    /// What one frame gives: for each observation, the ID it is reported under (nil while it is a
    /// candidate), and the events, a presence change first, then blinks in face order.
    package struct Step: Sendable, Hashable {
        package var reportedIDs: [Int?]
        package var events: [FaceTrackingEvent]
        /// Whether each observation's face has attention (debounced), as last reported.
        package var attentive: [Bool]
    }

    package var mirrored: Bool
    private var presence: PresenceDebouncer
    private var blinks: [Int: BlinkDetector] = [:]
    private var gestures: [Int: HeadGestureDetector] = [:]
    private let gestureOptions: HeadGestureOptions
    private let attentionOptions: AttentionOptions?
    private var attention: AttentionDebouncer
    /// Per tracker ID, since when the face's eyes have been under ``AttentionOptions/eyeOpenness``.
    private var lidsLoweredSince: [Int: Double] = [:]
    /// Reported IDs whose face has attention.
    private var attentiveIDs: Set<Int> = []
    private let blinkThreshold: Float
    private let hysteresis: Float
    /// Reported ID for each tracker ID once reported, and when that face was last seen.
    private var reported: [Int: (id: Int, lastSeen: Double)] = [:]
    private var nextID = 1
    /// A tracker ID unseen this long (media seconds) is forgotten: the tracker has dropped it too.
    private let forgetAfter: Double

    package init(
        debounce: Double = 1, blinkThreshold: Float = 0.5, hysteresis: Float = 0.15, mirrored: Bool = false,
        forgetAfter: Double = 0.5, gestures: HeadGestureOptions = .init(), attention: AttentionOptions? = nil
    ) {
        gestureOptions = gestures
        attentionOptions = attention
        self.attention = AttentionDebouncer(minimumDuration: attention?.minimumDuration ?? 0)
        presence = PresenceDebouncer(duration: debounce)
        (self.blinkThreshold, self.hysteresis, self.mirrored, self.forgetAfter) = (blinkThreshold, hysteresis, mirrored, forgetAfter)
    }

    /// The events of one frame: a presence change first, then blinks in face order.
    package mutating func update(_ faces: [Observation], time: Double, frameIndex: Int) -> [FaceTrackingEvent] {
        step(faces, time: time, frameIndex: frameIndex).events
    }

    /// Reported IDs and events of one frame.
    package mutating func step(_ faces: [Observation], time: Double, frameIndex: Int) -> Step {
        var events: [FaceTrackingEvent] = []
        if let present = presence.update(facePresent: !faces.isEmpty, at: time) {
            events.append(FaceTrackingEvent(kind: present ? .faceDetected : .noFaceDetected, time: time, frameIndex: frameIndex))
        }
        let visible = presence.isPresent == true
        var ids: [Int?] = []
        var next: [Int: BlinkDetector] = [:]
        var nextGestures: [Int: HeadGestureDetector] = [:]
        for face in faces {
            // Eye state is followed for candidates too, so an eye already closed when the face is
            // confirmed does not count as a blink then.
            var detector = blinks[face.trackingID] ?? BlinkDetector(threshold: blinkThreshold, hysteresis: hysteresis)
            let (left, right) = mirrored ? (face.eyeBlinkRight, face.eyeBlinkLeft) : (face.eyeBlinkLeft, face.eyeBlinkRight)
            let eye = detector.update(left: left, right: right)
            next[face.trackingID] = detector
            var gestureDetector = gestures[face.trackingID] ?? HeadGestureDetector(options: gestureOptions)
            let found = gestureDetector.update(time: time, pitch: face.pitch, yaw: face.yaw)
            nextGestures[face.trackingID] = gestureDetector
            guard visible else {
                ids.append(nil)
                continue
            }
            let id = reported[face.trackingID]?.id ?? nextID
            if id == nextID { nextID += 1 }
            reported[face.trackingID] = (id, time)
            ids.append(id)
            if let eye {
                events.append(FaceTrackingEvent(kind: .blink(eye), time: time, frameIndex: frameIndex, trackingID: id))
            }
            for (axis, gesture) in found {
                events.append(FaceTrackingEvent(
                    kind: axis == .pitch ? .nod(gesture) : .shake(gesture), time: time, frameIndex: frameIndex, trackingID: id))
            }
        }
        // Faces no longer tracked take their eye state with them.
        blinks = next
        gestures = nextGestures
        let kept = reported.filter { time - $0.value.lastSeen <= forgetAfter || time < $0.value.lastSeen }
        let forgotten = reported.filter { kept[$0.key] == nil }.mapValues(\.id)
        reported = kept
        guard let attentionOptions else { return Step(reportedIDs: ids, events: events, attentive: ids.map { _ in false }) }

        var watching: [Int: Bool] = [:], reportedIDs: [Int: Int] = [:], lowered: [Int: Double] = [:]
        for (face, id) in zip(faces, ids) {
            var openness = face.eyeOpenness
            if let minimum = attentionOptions.eyeOpenness, !(openness >= minimum) {
                // Eyes under the threshold for less than a blink lasts still count as open.
                let since = lidsLoweredSince[face.trackingID] ?? time
                lowered[face.trackingID] = since
                if time - since < AttentionOptions.blinkTolerance - 1e-9 { openness = minimum }
            }
            watching[face.trackingID] = attentionOptions.isWatching(
                headAngle: face.headAngle, gazeAngle: face.gazeAngle, eyeOpenness: openness)
            reportedIDs[face.trackingID] = id
        }
        lidsLoweredSince = lowered
        let changes = attention.update(
            watching: watching, reportedIDs: reportedIDs, forgotten: forgotten, presence: presence.isPresent, time: time)
        var attentionEvents: [FaceTrackingEvent] = []
        if let anyone = changes.anyone {
            attentionEvents.append(FaceTrackingEvent(kind: anyone ? .attentionGained : .attentionLost, time: time, frameIndex: frameIndex))
        }
        for change in changes.faces {
            if change.gained { attentiveIDs.insert(change.id) } else { attentiveIDs.remove(change.id) }
            attentionEvents.append(FaceTrackingEvent(
                kind: change.gained ? .attentionGained : .attentionLost, time: time, frameIndex: frameIndex, trackingID: change.id))
        }
        // After the presence change, before the faces' own events.
        events.insert(contentsOf: attentionEvents, at: events.first.map { $0.trackingID == nil ? 1 : 0 } ?? 0)
        return Step(reportedIDs: ids, events: events, attentive: ids.map { $0.map(attentiveIDs.contains) ?? false })
    }
}
