import Foundation

extension Image {
    /// PNG bytes of the upright picture (orientation applied first), 8 bits per channel.
    public func pngData() throws(ImageError) -> Data {
        try Data(PNGCodec.encode(applyingOrientation()))
    }

    /// JPEG bytes of the upright picture (orientation applied first); alpha is dropped.
    ///
    /// - Parameter quality: 1…100; chroma is subsampled 4:2:0 up to 90 and kept at full resolution above.
    public func jpegData(quality: Int = 90) throws(ImageError) -> Data {
        guard width <= 65_500, height <= 65_500 else {
            throw .invalidParameter(name: "size", value: "\(width)×\(height)", rule: "JPEG allows at most 65500 pixels a side")
        }
        return try Data(JPEGCodec.encode(applyingOrientation(), quality: quality))
    }
}
