/// The windows accurate mode runs the short-range detector on, beyond the whole-picture letterbox.
///
/// The short-range model sees a face best when it fills about a third to a half of its 128-pixel input
/// (the evaluation's faces were found at those shares, and rarely below a sixth), so one letterbox misses
/// faces smaller than about 15 % of the picture's longer side. The pyramid adds one finer scale: square
/// windows of the longer side ÷ √2, overlapping by a quarter as ``TilePlan``'s tiles (4 windows on a 4:3
/// or square picture, 2–3 on a wide one), the same as a whole-image pass on the picture enlarged by √2.
/// Faces from about 12 % of the longer side up are thus seen at a size the model was trained on; smaller
/// ones are left to the full-range letterbox (down to 1/16 of the side) and tiles.
///
/// Finer levels (÷ 2, ÷ 2√2, ÷ 4: up to 42 more windows, each a whole fast-mode detection) were tried on
/// `Scripts/evaluate.py`'s aggregates and found no face the other passes missed: with all four levels
/// recall was 114 of 145 faces, with this one 116, with none 113, at the same precision, while accurate
/// mode cost 22–38 times fast mode against 16–17 times with this level alone (the README's accuracy
/// section). The level is skipped when its window is less than three times the smallest face asked for,
/// since it would then only see faces too small to report.
package struct ShortRangePyramid: Sendable {
    /// A window this many times the smallest face wanted is the finest worth running.
    package static let windowsPerSmallestFace = 3.0

    package let windows: [DetectionWindow]

    package init(imageWidth: Int, imageHeight: Int, minFaceSize: Double) {
        let side = Double(max(imageWidth, imageHeight)) / 2.squareRoot()
        let finest = max(minFaceSize * Double(imageWidth), TilePlan.smallestFacePixels) * Self.windowsPerSmallestFace
        windows = side >= finest ? TilePlan.tiles(side: side, imageWidth: imageWidth, imageHeight: imageHeight) : []
    }
}
