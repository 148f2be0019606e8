import Foundation

/// Turns the face detector's raw outputs into scored detections, as MediaPipe's
/// `TensorsToDetectionsCalculator` does with the face detectors' options.
///
/// Each anchor has 16 regressed values: box centre x, y, width, height, then six keypoints (x, y), all
/// in input pixels relative to the anchor centre (`reverse_output_order`: x before y). Dividing by the
/// input size and adding the anchor centre gives coordinates normalized to the input. The score is
/// `sigmoid(clamp(raw, ±100))`; anchors scoring below the threshold, and boxes with a negative or NaN
/// size, are dropped.
package struct DetectionDecoder: Sendable {
    /// Values per anchor in the regressors tensor.
    package static let valuesPerAnchor = 16
    package static let keypointCount = 6
    /// MediaPipe's `score_clipping_thresh`.
    package static let scoreClipping: Float = 100

    package let anchors: [Anchor]
    package let inputWidth: Float
    package let inputHeight: Float
    package let scoreThreshold: Float
    /// Raw scores below this are under the threshold whatever the sigmoid's rounding (its logit less a
    /// margin far above float error), so most anchors skip `exp`; nearer ones take the exact test.
    private let rawScoreFloor: Float

    package init(anchors: [Anchor], inputWidth: Int, inputHeight: Int, scoreThreshold: Float) {
        self.anchors = anchors
        self.inputWidth = Float(inputWidth)
        self.inputHeight = Float(inputHeight)
        self.scoreThreshold = scoreThreshold
        let logit = log(scoreThreshold / (1 - scoreThreshold))
        rawScoreFloor = logit.isFinite ? logit - 0.01 : -.infinity
    }

    /// The detections above the threshold, in anchor order.
    ///
    /// - Precondition: `regressors.count == anchors.count × 16` and `classificators.count == anchors.count`
    ///   (the pipeline checks the model's output shapes when it loads the model).
    /// - Complexity: O(anchors); allocates only for the detections kept.
    package func decode(regressors: UnsafeBufferPointer<Float>, classificators: UnsafeBufferPointer<Float>) -> [Detection] {
        precondition(regressors.count == anchors.count * Self.valuesPerAnchor, "regressors: \(regressors.count) values for \(anchors.count) anchors")
        precondition(classificators.count == anchors.count, "classificators: \(classificators.count) values for \(anchors.count) anchors")
        var detections: [Detection] = []
        for (index, anchor) in anchors.enumerated() {
            guard !(classificators[index] < rawScoreFloor) else { continue }  // NaN takes the exact path
            let raw = min(max(classificators[index], -Self.scoreClipping), Self.scoreClipping)
            let score = 1 / (1 + exp(-raw))
            guard score >= scoreThreshold else { continue }
            let base = index * Self.valuesPerAnchor
            let xCenter = regressors[base] / inputWidth * anchor.width + anchor.xCenter
            let yCenter = regressors[base + 1] / inputHeight * anchor.height + anchor.yCenter
            let width = regressors[base + 2] / inputWidth * anchor.width
            let height = regressors[base + 3] / inputHeight * anchor.height
            let xMin = xCenter - width / 2, yMin = yCenter - height / 2
            let xMax = xCenter + width / 2, yMax = yCenter + height / 2
            // MediaPipe stores the corners and reports width as xmax − xmin; keep that rounding.
            let boxWidth = xMax - xMin, boxHeight = yMax - yMin
            guard boxWidth >= 0, boxHeight >= 0 else { continue }  // also false for NaN
            var keypoints: [SIMD2<Float>] = []
            keypoints.reserveCapacity(Self.keypointCount)
            for k in 0..<Self.keypointCount {
                let offset = base + 4 + 2 * k
                keypoints.append(SIMD2(
                    regressors[offset] / inputWidth * anchor.width + anchor.xCenter,
                    regressors[offset + 1] / inputHeight * anchor.height + anchor.yCenter))
            }
            detections.append(Detection(
                xMin: xMin, yMin: yMin, width: boxWidth, height: boxHeight, keypoints: keypoints, score: score))
        }
        return detections
    }
}
