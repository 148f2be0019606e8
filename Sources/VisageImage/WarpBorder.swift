/// What ``Image/warpAffine(into:width:height:transform:valueRange:border:)`` samples outside the source.
public enum WarpBorder: Sendable, Hashable {
    /// Black (all channels 0), which maps to the lower bound of the value range.
    case zero
    /// The nearest edge pixel.
    case replicate
}
