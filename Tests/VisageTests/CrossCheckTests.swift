import Testing
import Visage

@Suite struct CrossCheckTests {
    static func detection(_ x: Float, _ y: Float, _ width: Float, _ height: Float, score: Float = 0.8) -> Detection {
        Detection(xMin: x, yMin: y, width: width, height: height, keypoints: [], score: score)
    }

    /// The verifying window is a square centred on the face, three times its larger side in pixels.
    @Test func verificationWindowIsCentredAndThreeTimesTheFace() {
        // 100 × 100 pixels at (400, 150) in a 1000 × 500 picture.
        let candidate = Self.detection(0.4, 0.3, 0.1, 0.2)
        let window = CrossCheck.verificationWindow(for: candidate, imageWidth: 1000, imageHeight: 500)
        #expect(abs(window.side - 300) < 1e-3)
        #expect(abs(window.originX - 300) < 1e-3 && abs(window.originY - 50) < 1e-3)
        // Near the border the window reaches outside the picture (the warp fills it with black) rather
        // than moving, so the face stays in its middle.
        let corner = CrossCheck.verificationWindow(for: Self.detection(0, 0, 0.05, 0.1), imageWidth: 1000, imageHeight: 500)
        #expect(corner.originX < 0 && corner.originY < 0)
    }

    /// Agreement and confirmation use the graphs' NMS overlap (IoU above 0.3).
    @Test func sameFaceIsAnOverlapAboveTheSuppressionThreshold() {
        let candidate = Self.detection(0.2, 0.2, 0.2, 0.2)
        let shifted = Self.detection(0.25, 0.2, 0.2, 0.2, score: 0.6)  // IoU 0.6
        let stronger = Self.detection(0.21, 0.21, 0.2, 0.2, score: 0.9)
        let beside = Self.detection(0.4, 0.2, 0.2, 0.2, score: 0.95)  // IoU 0, and 1/7 with `shifted`
        #expect(CrossCheck.agreeing([candidate], with: [beside]) == [false])
        #expect(CrossCheck.agreeing([candidate, beside], with: [shifted]) == [true, false])
        #expect(CrossCheck.confirmation(of: candidate, in: [beside], by: .shortRange) == nil)
        #expect(CrossCheck.confirmation(of: candidate, in: [shifted, beside, stronger], by: .shortRange) == stronger)
        // Both models confirm at the full-range graph's 0.6: the short-range model's graph threshold (0.5)
        // let a blurred coin (0.566) and a die (0.594) through (``CrossCheck/shortRangeConfirmationScore``).
        let weak = Self.detection(0.25, 0.2, 0.2, 0.2, score: 0.55)
        let coin = Self.detection(0.25, 0.2, 0.2, 0.2, score: 0.594)
        let atThreshold = Self.detection(0.25, 0.2, 0.2, 0.2, score: 0.6)
        #expect(CrossCheck.confirmation(of: candidate, in: [weak], by: .shortRange) == nil)
        #expect(CrossCheck.confirmation(of: candidate, in: [coin, weak], by: .shortRange) == nil)
        #expect(CrossCheck.confirmation(of: candidate, in: [coin, atThreshold], by: .shortRange) == atThreshold)
        #expect(CrossCheck.confirmationScore(by: .shortRange) == DetectorVariant.fullRange.scoreThreshold)
        #expect(CrossCheck.confirmationScore(by: .fullRangeSparse) == DetectorVariant.fullRangeSparse.scoreThreshold)
        #expect(CrossCheck.confirmation(of: candidate, in: [weak], by: .fullRange) == nil)
        #expect(CrossCheck.confirmation(of: candidate, in: [shifted], by: .fullRange) == shifted)
        #expect(CrossCheck.confirmation(of: candidate, in: [shifted, stronger], by: .fullRange) == stronger)
    }

    /// The full-range letterbox's faces below the score a face it alone vouches for needs are checked like
    /// a tile's: its graph keeps faces from 0.6, and a blurred coin scored 0.64 there.
    @Test func fullRangeLetterboxFacesBelowTheConfirmationScoreAreChecked() {
        let coin = Self.detection(0.8, 0.1, 0.1, 0.1, score: 0.64)
        let face = Self.detection(0.2, 0.2, 0.2, 0.2, score: CrossCheck.fullRangeAloneScore)
        let other = Self.detection(0.5, 0.5, 0.1, 0.1, score: 0.9)
        let split = CrossCheck.letterboxFaces([coin, face, other])
        #expect(split.trusted == [face, other])
        #expect(split.doubtful == [coin])
        #expect(CrossCheck.fullRangeAloneScore > DetectorVariant.fullRange.scoreThreshold)
    }
}
