/// The interpolation of ``Image/resized(width:height:method:)``.
public enum ResizeMethod: Sendable, Hashable {
    /// Each output pixel is the mean of the source area it covers, with fractional edge weights
    /// (OpenCV `INTER_AREA` for shrinking). Alias-free; the choice for downscaling.
    case area
    /// Bilinear interpolation between the four nearest source pixels, pixel centres aligned
    /// (OpenCV `INTER_LINEAR`). No prefilter: aliases when shrinking by more than 2×.
    case bilinear
}
