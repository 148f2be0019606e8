/// The windows accurate mode runs the short-range detector on, beyond the whole-picture letterbox.
///
/// The short-range model sees a face best when it fills about a third to a half of its 128-pixel input
/// (the evaluation's faces were found at those shares, and rarely below a sixth). One letterbox therefore
/// misses faces smaller than about 15 % of the picture's longer side. The pyramid looks at the picture
/// at finer scales: level k cuts it into square windows of the longer side ÷ √2ᵏ (k = 1…4, so down to a
/// quarter of the side), overlapping by a quarter as ``TilePlan``'s tiles (half, tried on the evaluation, cost
/// 1.6 times the windows and found no more faces), which is the same as a whole-
/// image pass on the picture enlarged by √2ᵏ, read 128 pixels at a time. Faces from about 8 % of the
/// longer side up are thus seen at a size the model was trained on; smaller ones are left to the full-
/// range tiles. Levels stop where a window is less than three times the smallest face asked for, since
/// such windows only see faces too small to report.
package struct ShortRangePyramid: Sendable {
    /// At most this many levels below the letterbox.
    package static let levels = 4
    /// A window this many times the smallest face wanted is the finest worth running.
    package static let windowsPerSmallestFace = 3.0

    package let windows: [DetectionWindow]

    package init(imageWidth: Int, imageHeight: Int, minFaceSize: Double) {
        let longer = Double(max(imageWidth, imageHeight))
        let finest = max(minFaceSize * Double(imageWidth), TilePlan.smallestFacePixels) * Self.windowsPerSmallestFace
        var windows: [DetectionWindow] = []
        var side = longer
        for _ in 0 ..< Self.levels {
            side /= 2.squareRoot()
            guard side >= finest else { break }
            windows += TilePlan.tiles(side: side, imageWidth: imageWidth, imageHeight: imageHeight)
        }
        self.windows = windows
    }
}
