/// One face as a detector reports it, before it becomes a public observation.
///
/// Coordinates are normalized to the frame the detection is expressed in (the model's input while
/// decoding, the upright image after projection), origin at the top left, y down, as MediaPipe's
/// relative bounding boxes. Keypoints follow ``FaceKeypoint`` order.
package struct Detection: Sendable, Hashable {
    package var xMin: Float
    package var yMin: Float
    package var width: Float
    package var height: Float
    package var keypoints: [SIMD2<Float>]
    package var score: Float

    package init(xMin: Float, yMin: Float, width: Float, height: Float, keypoints: [SIMD2<Float>], score: Float) {
        (self.xMin, self.yMin, self.width, self.height) = (xMin, yMin, width, height)
        self.keypoints = keypoints
        self.score = score
    }

    package var xMax: Float { xMin + width }
    package var yMax: Float { yMin + height }

    /// Intersection over union of the two boxes, computed in Float as MediaPipe's
    /// `NonMaxSuppressionCalculator` does; 0 when they do not overlap or the union is empty.
    package func intersectionOverUnion(_ other: Detection) -> Float {
        let width = min(xMax, other.xMax) - max(xMin, other.xMin)
        let height = min(yMax, other.yMax) - max(yMin, other.yMin)
        guard width >= 0, height >= 0 else { return 0 }
        let intersection = width * height
        let union = self.width * self.height + other.width * other.height - intersection
        return union > 0 ? intersection / union : 0
    }
}
