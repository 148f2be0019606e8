import Foundation
import Testing
import Visage
import VisageNN  // SplitMix64

@Suite struct ShortRangePyramidTests {
    /// One level of windows, the longer side ÷ √2, skipped below three times the smallest face.
    @Test(arguments: [(1920, 1080, 0.02, 2), (640, 480, 0.1, 4), (817, 1024, 0.02, 4), (640, 480, 0.5, 0), (100, 100, 0.3, 0)])
    func oneLevelUnlessTheSmallestFaceRulesItOut(width: Int, height: Int, minFaceSize: Double, windows: Int) {
        let pyramid = ShortRangePyramid(imageWidth: width, imageHeight: height, minFaceSize: minFaceSize)
        #expect(pyramid.windows.count == windows)
        let longer = Double(max(width, height))
        #expect(pyramid.windows.allSatisfy { abs($0.side - longer / 2.squareRoot()) < 1e-9 })
        let smallest = max(minFaceSize * Double(width), 20)
        #expect(pyramid.windows.allSatisfy { $0.side >= 3 * smallest })
    }

    /// Every face from an eighth of the longer side to a quarter of the window lies wholly inside a window
    /// it fills 18–25 % of (a side between 4 and 4√2 times the face): the short-range model's range, which
    /// the letterbox alone gives only for faces above about 15 % of the picture.
    @Test(arguments: [(1920, 1080), (817, 1024), (4000, 3000), (640, 480)])
    func everyFaceFitsAWindowOfTheRightScale(width: Int, height: Int) {
        let pyramid = ShortRangePyramid(imageWidth: width, imageHeight: height, minFaceSize: 0)
        let longer = Double(max(width, height))
        var generator = SplitMix64(seed: 0x9E3779B9)
        for _ in 0 ..< 2000 {
            let size = Double.random(in: longer / 8 ... longer / 2.squareRoot() / 4, using: &generator)
            guard size < Double(min(width, height)) else { continue }
            let x = Double.random(in: 0 ... (Double(width) - size), using: &generator)
            let y = Double.random(in: 0 ... (Double(height) - size), using: &generator)
            let found = pyramid.windows.contains { window in
                x >= window.originX && y >= window.originY
                    && x + size <= window.originX + window.side && y + size <= window.originY + window.side
                    && window.side >= 4 * size - 1e-9 && window.side <= 4 * 2.squareRoot() * size + 1e-9
            }
            #expect(found, "face \(size) px at (\(x), \(y)) has no window")
        }
    }
}
