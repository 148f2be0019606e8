import Testing
import Visage

@Suite struct WeightedNonMaxSuppressionTests {
    static func detection(_ x: Float, _ y: Float, _ side: Float, score: Float) -> Detection {
        Detection(
            xMin: x, yMin: y, width: side, height: side,
            keypoints: (0..<6).map { SIMD2(x + Float($0) * side / 6, y + side / 2) }, score: score)
    }

    @Test func overlappingBoxesBecomeTheirScoreWeightedAverage() throws {
        let strong = Self.detection(0.10, 0.10, 0.20, score: 0.9)
        let weak = Self.detection(0.12, 0.11, 0.20, score: 0.6)
        let result = weightedNonMaxSuppression([weak, strong])
        let merged = try #require(result.first)
        #expect(result.count == 1)
        let total = strong.score + weak.score
        #expect(abs(merged.xMin - (strong.xMin * strong.score + weak.xMin * weak.score) / total) < 1e-6)
        #expect(abs(merged.yMin - (strong.yMin * strong.score + weak.yMin * weak.score) / total) < 1e-6)
        #expect(abs(merged.xMax - (strong.xMax * strong.score + weak.xMax * weak.score) / total) < 1e-6)
        #expect(abs(merged.keypoints[3].x - (strong.keypoints[3].x * strong.score + weak.keypoints[3].x * weak.score) / total) < 1e-6)
        #expect(merged.score == strong.score, "the merged detection keeps the best score")
    }

    @Test func separateFacesStayApartOrderedByScore() {
        let left = Self.detection(0.05, 0.1, 0.2, score: 0.7)
        let right = Self.detection(0.6, 0.1, 0.2, score: 0.95)
        let result = weightedNonMaxSuppression([left, right])
        // A group of one is still averaged (as in MediaPipe), which may round the last bit.
        #expect(result.map(\.score) == [right.score, left.score])
        for (merged, original) in zip(result, [right, left]) {
            #expect(abs(merged.xMin - original.xMin) < 1e-6 && abs(merged.width - original.width) < 1e-6)
            #expect(abs(merged.yMin - original.yMin) < 1e-6 && abs(merged.height - original.height) < 1e-6)
        }
    }

    /// IoU must exceed the threshold: two boxes with IoU exactly 1/3 merge at 0.3 but not at 1/3.
    @Test func thresholdIsStrict() {
        // Side 1 boxes offset by 0.5: intersection 0.5, union 1.5.
        let a = Detection(xMin: 0, yMin: 0, width: 1, height: 1, keypoints: [], score: 0.9)
        let b = Detection(xMin: 0.5, yMin: 0, width: 1, height: 1, keypoints: [], score: 0.8)
        #expect(a.intersectionOverUnion(b) == Float(0.5) / Float(1.5))
        #expect(weightedNonMaxSuppression([a, b], threshold: 0.3).count == 1)
        #expect(weightedNonMaxSuppression([a, b], threshold: Float(0.5) / Float(1.5)).count == 2)
    }

    @Test func emptyInputGivesNoDetections() {
        #expect(weightedNonMaxSuppression([]).isEmpty)
    }
}
