import Testing
import Visage

/// Accurate mode reports each of fast mode's faces at IoU ≥ 0.5 (``FastFaceCoverage``).
@Suite struct FastFaceCoverageTests {
    static func detection(_ x: Float, _ y: Float, _ width: Float, _ height: Float, score: Float = 0.8) -> Detection {
        Detection(xMin: x, yMin: y, width: width, height: height, keypoints: [SIMD2(x, y), SIMD2(x + width, y)], score: score)
    }

    /// A face rotation search took from a turned view, whose box overlaps fast mode's at less than 0.5,
    /// is moved toward fast mode's just far enough: its overlap reaches 0.501 (not much more), it stays
    /// closer to its own box than to fast mode's, and its score and keypoints are its own.
    @Test func aBoxBelowTheOverlapIsMovedJustEnough() throws {
        let fast = Self.detection(0.30, 0.30, 0.30, 0.30, score: 0.55)
        let turned = Self.detection(0.38, 0.36, 0.28, 0.28, score: 0.9)
        #expect(turned.intersectionOverUnion(fast) < FastFaceCoverage.sameFace)
        let covered = FastFaceCoverage.covering([fast], in: [turned])
        try #require(covered.count == 1)
        let moved = covered[0]
        // Aimed a hair above 0.5, so the promise survives the box's rounding on its way out.
        #expect(moved.intersectionOverUnion(fast) >= FastFaceCoverage.sameFace + FastFaceCoverage.margin)
        #expect(moved.intersectionOverUnion(fast) < FastFaceCoverage.sameFace + 0.01)
        #expect(moved.intersectionOverUnion(turned) > moved.intersectionOverUnion(fast))
        #expect(moved.score == turned.score && moved.keypoints == turned.keypoints)
    }

    /// Faces already covered, and faces fast mode did not find, are left as they are, in their order.
    @Test func coveredAndOtherFacesAreUnchanged() {
        let fast = Self.detection(0.1, 0.1, 0.2, 0.2)
        let same = Self.detection(0.11, 0.1, 0.2, 0.21, score: 0.9)
        let other = Self.detection(0.6, 0.6, 0.1, 0.1, score: 0.7)
        #expect(FastFaceCoverage.covering([fast], in: [other, same]) == [other, same])
        #expect(FastFaceCoverage.covering([], in: [other, same]) == [other, same])
    }

    /// A fast-mode face no reported face overlaps is added as it is; each fast face is covered by the
    /// reported face overlapping it most.
    @Test func anUncoveredFaceIsAddedAndEachFastFaceTakesItsBestOverlap() {
        let lost = Self.detection(0.7, 0.1, 0.2, 0.2, score: 0.6)
        let fast = Self.detection(0.1, 0.1, 0.3, 0.3)
        let far = Self.detection(0.05, 0.3, 0.3, 0.3, score: 0.95)   // overlaps fast less
        let near = Self.detection(0.18, 0.16, 0.3, 0.3, score: 0.85)  // overlaps fast most, below 0.5
        #expect(near.intersectionOverUnion(fast) < FastFaceCoverage.sameFace)
        #expect(far.intersectionOverUnion(fast) < near.intersectionOverUnion(fast))
        let covered = FastFaceCoverage.covering([fast, lost], in: [far, near])
        #expect(covered.count == 3)
        #expect(covered[0] == far)
        #expect(covered[1] != near && covered[1].intersectionOverUnion(fast) >= FastFaceCoverage.sameFace)
        #expect(covered[2] == lost)
    }
}
