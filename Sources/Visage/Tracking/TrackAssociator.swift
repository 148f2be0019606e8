import Foundation

/// Gives each face box of a frame a tracking ID with ML Kit's meaning: the ID stays with a face while it
/// stays in view; a face gone longer than ``maximumGap`` and seen again gets a new one.
///
/// Each track predicts where its face is now from its last box and a smoothed constant velocity; boxes
/// are matched to predictions by intersection over union with one optimal assignment
/// (``OptimalAssignment``), so two faces crossing keep their IDs: each track's prediction overlaps its
/// own face more than the other. A box overlapping no prediction by at least ``minimumOverlap`` starts a
/// new track.
package struct TrackAssociator: Sendable {
    package struct Track: Sendable, Hashable {
        package var id: Int
        /// Pixels, top-left origin.
        package var box: CGRect
        /// Centre velocity, pixels per second.
        package var velocity: SIMD2<Double>
        package var lastSeen: Double

        package func predicted(at time: Double) -> CGRect {
            let shift = velocity * (time - lastSeen)
            return box.offsetBy(dx: shift.x, dy: shift.y)
        }
    }

    /// Longest absence in media seconds after which a face that returns is a new face.
    package var maximumGap: Double
    /// Least IoU between a prediction and a box for them to be the same face.
    package var minimumOverlap: Double
    package private(set) var tracks: [Track] = []
    private var nextID = 1

    package init(maximumGap: Double = 0.25, minimumOverlap: Double = 0.1) {
        self.maximumGap = maximumGap
        self.minimumOverlap = minimumOverlap
    }

    /// The tracking ID of each of `boxes` (pixels) seen at `time`, in their order.
    ///
    /// Times must not go back; a frame at an earlier time than the last restarts tracking (a new clip).
    package mutating func associate(_ boxes: [CGRect], at time: Double) -> [Int] {
        if let latest = tracks.map(\.lastSeen).max(), time < latest { tracks.removeAll() }
        tracks.removeAll { time - $0.lastSeen > maximumGap }
        let predictions = tracks.map { $0.predicted(at: time) }
        let forbidden = 1e6
        let cost = boxes.map { box in
            predictions.map { prediction -> Double in
                let overlap = Self.intersectionOverUnion(box, prediction)
                return overlap >= minimumOverlap ? 1 - overlap : forbidden
            }
        }
        let assignment = OptimalAssignment.solve(cost)
        var ids: [Int] = []
        for (index, box) in boxes.enumerated() {
            if let column = assignment[index], cost[index][column] < forbidden {
                var track = tracks[column]
                let dt = time - track.lastSeen
                if dt > 0 {
                    let measured = SIMD2(box.midX - track.box.midX, box.midY - track.box.midY) / dt
                    track.velocity = track.velocity == .zero ? measured : 0.5 * (track.velocity + measured)
                }
                track.box = box
                track.lastSeen = time
                tracks[column] = track
                ids.append(track.id)
            } else {
                ids.append(nextID)
                tracks.append(Track(id: nextID, box: box, velocity: .zero, lastSeen: time))
                nextID += 1
            }
        }
        return ids
    }

    /// Forgets every track (a cut in the video); IDs keep counting up.
    package mutating func reset() { tracks.removeAll() }

    package static func intersectionOverUnion(_ a: CGRect, _ b: CGRect) -> Double {
        let intersection = a.intersection(b)
        guard !intersection.isNull, !intersection.isEmpty else { return 0 }
        let shared = Double(intersection.width * intersection.height)
        let union = Double(a.width * a.height + b.width * b.height) - shared
        return union > 0 ? shared / union : 0
    }
}
