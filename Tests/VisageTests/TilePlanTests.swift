import Foundation
import Testing
import Visage
import VisageNN  // SplitMix64

@Suite struct TilePlanTests {
    @Test func defaultMinFaceSizeNeedsOnlyTheLetterbox() {
        let plan = TilePlan(imageWidth: 4000, imageHeight: 3000, minFaceSize: 0.1)
        #expect(plan.windows == [DetectionWindow.letterbox(width: 4000, height: 3000)])
    }

    /// Every face from the smallest asked for up to the picture's size lies wholly inside a window it
    /// fills 1/16 to 1/4 of (or any share of the letterbox above 1/16): the range the full-range model finds.
    @Test(arguments: [(4000, 3000, 0.006), (1280, 960, 0.02), (3000, 4000, 0.01), (640, 480, 0.0)])
    func everyFaceFitsAWindowOfTheRightScale(width: Int, height: Int, minFaceSize: Double) {
        let plan = TilePlan(imageWidth: width, imageHeight: height, minFaceSize: minFaceSize)
        #expect(plan.windows.count <= 400)
        let smallest = max(minFaceSize * Double(width), 20)
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<2000 {
            let size = smallest * pow(Double(max(width, height)) / smallest, Double.random(in: 0...1, using: &generator))
            guard size < Double(min(width, height)) else { continue }
            let x = Double.random(in: 0...(Double(width) - size), using: &generator)
            let y = Double.random(in: 0...(Double(height) - size), using: &generator)
            let found = plan.windows.contains { window in
                let inside = x >= window.originX && y >= window.originY
                    && x + size <= window.originX + window.side && y + size <= window.originY + window.side
                let isLetterbox = window.side == Double(max(width, height))
                return inside && size >= window.side / 16 - 1e-9 && (isLetterbox || size <= window.side / 4 + 1e-9)
            }
            #expect(found, "face \(size) px at (\(x), \(y)) has no window")
        }
    }
}
