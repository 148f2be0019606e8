import VisageImage

/// How an image becomes a custom model's input tensor: the caller declares what the model expects.
public struct CustomModelInput: Sendable, Hashable {
    /// The order of the three channels in the tensor.
    public enum ChannelOrder: String, Sendable, Hashable, CaseIterable {
        case rgb, bgr
    }

    /// Input width and height in pixels; nil takes the model's (TFLite shapes are fixed, so a declared
    /// size must equal the model's).
    public var width: Int?
    public var height: Int?
    public var channelOrder: ChannelOrder
    /// Pixel levels 0…255 map linearly onto this range: `0...1` (the default), `-1...1`, `0...255`.
    public var valueRange: ClosedRange<Float>
    /// What samples outside the picture read: black (`.zero`) or the nearest edge pixel.
    public var border: WarpBorder

    public init(
        width: Int? = nil, height: Int? = nil, channelOrder: ChannelOrder = .rgb, valueRange: ClosedRange<Float> = 0...1,
        border: WarpBorder = .zero
    ) {
        (self.width, self.height, self.channelOrder, self.valueRange, self.border) = (width, height, channelOrder, valueRange, border)
    }
}
