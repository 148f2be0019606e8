/// Attention per face and for "anyone", debounced in media time as presence is.
///
/// Per face, watching starts unknown and is followed for candidates too (so a face confirmed while it
/// already watches gains attention at once); a face's events come only while it is reported, and the
/// first one is always `attentionGained` (a face that never watched has nothing to lose). A face that
/// leaves while watching loses attention once it is gone for the minimum duration, or when the
/// tracker forgets it, whichever comes first.
///
/// "Anyone" is watching when at least one face in the frame is. Its first state is always reported, as
/// presence's is, but never before presence's first report, so a stream without faces reports
/// `noFaceDetected` then `attentionLost`; and it is gained only while presence is reported, so a face
/// that comes into view watching gains it with `faceDetected`, not before.
package struct AttentionDebouncer: Sendable {
    private struct Face {
        var watching: PresenceDebouncer
        /// The state last reported for this face.
        var reported = false
        /// The ID the face's events use, once it has been reported.
        var id: Int?
    }

    private let duration: Double
    private var faces: [Int: Face] = [:]
    private var anyone: PresenceDebouncer
    private var anyoneReported: Bool?

    package init(minimumDuration: Double) {
        duration = minimumDuration
        anyone = PresenceDebouncer(duration: minimumDuration)
    }

    /// One frame: `watching` by tracker ID for the faces in it, `reportedIDs` the IDs events use for
    /// those reported (others are candidates), `forgotten` tracker IDs the tracker has dropped with the
    /// reported IDs they had, `presence` the presence last reported (nil: none yet). Returns the anyone
    /// event (if any) and the per-face events as (reported ID, gained).
    package mutating func update(
        watching: [Int: Bool], reportedIDs: [Int: Int], forgotten: [Int: Int], presence: Bool?, time: Double
    ) -> (anyone: Bool?, faces: [(id: Int, gained: Bool)]) {
        var events: [(id: Int, gained: Bool)] = []
        let tracked = Set(faces.keys).union(watching.keys)
        for trackerID in tracked.sorted() {
            var face = faces[trackerID] ?? Face(watching: PresenceDebouncer(duration: duration))
            _ = face.watching.update(facePresent: watching[trackerID] ?? false, at: time)
            let state = face.watching.isPresent ?? false
            face.id = reportedIDs[trackerID] ?? forgotten[trackerID] ?? face.id
            if let id = face.id, state != face.reported {
                events.append((id, state))
                face.reported = state
            }
            if forgotten[trackerID] != nil {
                if face.reported, let id = face.id { events.append((id, false)) }
                faces[trackerID] = nil
            } else if watching[trackerID] == nil, !face.reported {
                // A candidate that left, or a reported face whose loss is already out: nothing to follow.
                faces[trackerID] = nil
            } else {
                faces[trackerID] = face
            }
        }
        _ = anyone.update(facePresent: watching.values.contains(true), at: time)
        var anyoneEvent: Bool?
        if let presence, let state = anyone.isPresent, state != anyoneReported, presence || !state {
            anyoneEvent = state
            anyoneReported = state
        }
        return (anyoneEvent, events)
    }
}
