/// Video whose pixels are not square (a sample aspect ratio other than 1:1, as in CIF/QCIF test
/// sequences, DV and anamorphic DVD video) is read stretched to square pixels, since the models and the
/// pose fit take a picture's pixels as square. ``FFmpegFrameSource`` and ``Y4MFrameSource`` share this rule.
enum SquarePixels {
    /// The width a picture `width` stored pixels wide shows with square pixels, its pixels `aspect` times
    /// as wide as tall: scaled by the aspect and kept even (for the chroma planes), at least 2. `width` as
    /// it is for square pixels, or for an aspect outside 1/4…4, taken as a bad tag.
    static func width(_ width: Int, aspect: Double) -> Int {
        guard aspect != 1, (0.25...4).contains(aspect) else { return width }
        return max(2, Int((Double(width) * aspect / 2).rounded()) * 2)
    }
}
