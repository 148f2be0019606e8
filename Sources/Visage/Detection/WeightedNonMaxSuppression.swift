/// MediaPipe's `NonMaxSuppressionCalculator` with `algorithm: WEIGHTED` and intersection over union.
///
/// Detections are taken by decreasing score. The best remaining one gathers every remaining detection
/// whose IoU with it exceeds `threshold` (itself included); its box corners and keypoints become the
/// score-weighted average of that group, its score stays its own, and the group leaves the pool.
/// Averaging rather than discarding steadies boxes that several anchors agree on. As in MediaPipe, the
/// loop stops early when a round removes nothing (a detection with an empty box).
package func weightedNonMaxSuppression(_ detections: [Detection], threshold: Float = 0.3) -> [Detection] {
    // A stable order for equal scores (MediaPipe's std::sort leaves ties unspecified).
    var remaining = detections.indices.sorted {
        detections[$0].score != detections[$1].score ? detections[$0].score > detections[$1].score : $0 < $1
    }
    var output: [Detection] = []
    while let first = remaining.first {
        let best = detections[first]
        var group: [Int] = []
        var rest: [Int] = []
        for index in remaining {
            if detections[index].intersectionOverUnion(best) > threshold {
                group.append(index)
            } else {
                rest.append(index)
            }
        }
        var merged = best
        if !group.isEmpty {
            var xMin: Float = 0, yMin: Float = 0, xMax: Float = 0, yMax: Float = 0, total: Float = 0
            var keypoints = [SIMD2<Float>](repeating: .zero, count: best.keypoints.count)
            for index in group {
                let candidate = detections[index]
                let weight = candidate.score
                total += weight
                xMin += candidate.xMin * weight
                yMin += candidate.yMin * weight
                xMax += candidate.xMax * weight
                yMax += candidate.yMax * weight
                for k in keypoints.indices where k < candidate.keypoints.count {
                    keypoints[k] += candidate.keypoints[k] * weight
                }
            }
            merged.xMin = xMin / total
            merged.yMin = yMin / total
            merged.width = xMax / total - merged.xMin
            merged.height = yMax / total - merged.yMin
            merged.keypoints = keypoints.map { $0 / total }
        }
        output.append(merged)
        if rest.count == remaining.count { break }
        remaining = rest
    }
    return output
}
