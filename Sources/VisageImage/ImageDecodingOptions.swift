/// How a file becomes an ``Image``.
public struct ImageDecodingOptions: Sendable, Hashable {
    /// Rotate and mirror the pixels so they are upright, per the EXIF orientation. When false the
    /// image keeps the stored pixels and reports the orientation in ``Image/orientation``.
    public var applyOrientation: Bool
    /// When set, the longer stored side of the result is at most this many pixels, aspect ratio kept.
    /// JPEG uses libjpeg's scaled IDCT (cheap: the full image is never decoded) and then an area
    /// resize for the remainder; other formats decode fully and area-resize.
    public var maximumDimension: Int?
    /// Shrink on load: a JPEG is decoded at the smallest scaled-IDCT size of 1/2, 1/4 or 1/8 whose longer
    /// side still reaches this many pixels (full size when none does); no resize follows, so the result
    /// can be larger. libjpeg computes only the coefficients that size needs, so a 12-megapixel photo
    /// wanted at 512 pixels costs a fraction of a full decode. At 1/8 a sequential (baseline) JPEG is read
    /// for its blocks' DC terms alone, which skips the AC coefficients several at a time; its chroma is then
    /// block-constant where libjpeg's 1/8 decode of 4:2:0 or 4:2:2 chroma is not (`JPEGDCDecoder`).
    /// Other formats decode at full size.
    /// Ignored when ``maximumDimension`` is set. Nil (the default) decodes at full size.
    public var minimumDimension: Int? = nil
    /// How many threads one decode may use. A JPEG whose entropy-coded data has restart markers (many
    /// cameras and phones write them) is then decoded in up to this many bands of rows at once, when its
    /// rows come out bit-identical that way (not at full scale for 4:2:0 chroma, whose smooth upsampling
    /// reads across bands); everything else decodes on the calling thread. This shortens one decode's wall
    /// time, not its CPU time: for many images at once, decode them side by side instead. 1 by default.
    public var threads = 1
    /// The most pixels (width × height, as stored in the file) a decode may allocate. Checked from the header,
    /// before any pixel memory exists. 100 megapixels by default.
    public var pixelLimit: Int

    /// 100 megapixels: a 12 000 × 8 000 photo fits, a header claiming more is refused unless the caller raises it.
    public static let defaultPixelLimit = 100_000_000

    public init(applyOrientation: Bool = true, maximumDimension: Int? = nil, pixelLimit: Int = defaultPixelLimit) {
        self.applyOrientation = applyOrientation
        self.maximumDimension = maximumDimension
        self.pixelLimit = pixelLimit
    }
}

/// Throws the pixel-limit error before anything proportional to the image is allocated.
package func checkPixelLimit(width: Int, height: Int, limit: Int) throws(ImageError) {
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    if overflow || pixels > limit { throw .imageTooLarge(width: width, height: height, limit: limit) }
}
