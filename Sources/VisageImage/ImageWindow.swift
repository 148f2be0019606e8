import Foundation
import VisageGeometry

/// A rectangle of a stored picture's pixels, where it lies in the picture, and the picture's size: what
/// a region decode gives, so a stage that needs one part of a large photo never holds the whole of it.
///
/// Coordinates are stored pixels (before the EXIF orientation), origin top left. A whole decoded
/// picture is the window at (0, 0) of its own size.
package struct ImageWindow: Sendable {
    /// The window's pixels, carrying the picture's orientation.
    package var pixels: Image
    /// Where the window's first pixel lies in the stored picture.
    package var x: Int
    package var y: Int
    /// The whole stored picture's size.
    package var pictureWidth: Int
    package var pictureHeight: Int

    /// The whole of `image`.
    package init(_ image: Image) {
        (pixels, x, y, pictureWidth, pictureHeight) = (image, 0, 0, image.width, image.height)
    }

    package init(pixels: Image, x: Int, y: Int, pictureWidth: Int, pictureHeight: Int) {
        (self.pixels, self.x, self.y, self.pictureWidth, self.pictureHeight) = (pixels, x, y, pictureWidth, pictureHeight)
    }

    package var orientation: ImageOrientation { pixels.orientation }

    /// The upright picture's size (the orientation applied to the stored size).
    package var uprightSize: (width: Int, height: Int) {
        orientation.uprightSize(rawWidth: pictureWidth, rawHeight: pictureHeight)
    }

    /// The stored columns and rows the window holds.
    package var columns: Range<Int> { x..<(x + pixels.width) }
    package var rows: Range<Int> { y..<(y + pixels.height) }

    /// Whether the window holds every pixel of `columns` × `rows` of the picture that lies in the picture
    /// (or, for a side that misses it, the picture's nearest edge, which a replicating border samples).
    package func covers(columns wanted: Range<Int>, rows wantedRows: Range<Int>) -> Bool {
        let c = Self.clamped(wanted, to: pictureWidth), r = Self.clamped(wantedRows, to: pictureHeight)
        return columns.contains(c.lowerBound) && columns.contains(c.upperBound - 1)
            && rows.contains(r.lowerBound) && rows.contains(r.upperBound - 1)
    }

    /// `range` clamped to `0..<size`, keeping at least the nearest pixel when it misses.
    package static func clamped(_ range: Range<Int>, to size: Int) -> Range<Int> {
        let lower = min(max(range.lowerBound, 0), size - 1)
        return lower..<max(min(range.upperBound, size), lower + 1)
    }

    /// The same window declared to have `orientation`.
    package func withOrientation(_ orientation: ImageOrientation) -> ImageWindow {
        var window = self
        window.pixels = pixels.withOrientation(orientation)
        return window
    }

    /// ``Image/warpAffine(into:width:height:transform:valueRange:border:roundedToLevels:)`` with `transform`
    /// mapping into the whole stored picture: shifted onto the window. With `.replicate`, the result equals
    /// the whole picture's wherever the window holds every pixel the taps reach inside the picture and
    /// meets the picture's own edges where the taps leave it (what a window from ``covers`` provides).
    package func warpAffine(
        into tensor: UnsafeMutableBufferPointer<Float>, width: Int, height: Int, transform: PixelTransform,
        valueRange: ClosedRange<Float>, border: WarpBorder = .zero, roundedToLevels: Bool = false
    ) {
        var shifted = transform
        shifted.tx -= Double(x)
        shifted.ty -= Double(y)
        pixels.warpAffine(
            into: tensor, width: width, height: height, transform: shifted, valueRange: valueRange, border: border,
            roundedToLevels: roundedToLevels)
    }

    /// ``Image/warpAffineFixedPoint(into:width:height:transform:valueRange:border:)`` with `transform`
    /// mapping into the whole stored picture: shifted onto the window, as
    /// ``warpAffine(into:width:height:transform:valueRange:border:roundedToLevels:)``.
    package func warpAffineFixedPoint(
        into tensor: UnsafeMutableBufferPointer<Float>, width: Int, height: Int, transform: PixelTransform,
        valueRange: ClosedRange<Float>, border: WarpBorder = .zero
    ) {
        var shifted = transform
        shifted.tx -= Double(x)
        shifted.ty -= Double(y)
        pixels.warpAffineFixedPoint(into: tensor, width: width, height: height, transform: shifted, valueRange: valueRange, border: border)
    }
}

extension ImageWindow {
    /// The stored pixels of `columns` × `rows` of an encoded picture (clamped to it; at least those, at full
    /// scale). A JPEG decodes only that part (``JPEGCodec/decodeWindow(_:columns:rows:pixelLimit:)``);
    /// other formats decode whole and give the whole picture.
    ///
    /// A side that misses the picture gives its nearest edge pixel.
    ///
    /// - Throws: the errors of ``Image/init(data:options:)``.
    package init(data: Data, columns: Range<Int>, rows: Range<Int>, pixelLimit: Int = ImageDecodingOptions.defaultPixelLimit) throws(ImageError) {
        let window = try withBytes(of: data) { bytes throws(ImageError) -> ImageWindow? in
            guard try ImageFileFormat(detecting: bytes) == .jpeg else { return nil }
            return try JPEGCodec.decodeWindow(bytes, columns: columns, rows: rows, pixelLimit: pixelLimit)
        }
        if let window {
            self = window
        } else {
            var options = ImageDecodingOptions(applyOrientation: false)
            options.pixelLimit = pixelLimit
            self.init(try Image(data: data, options: options))
        }
    }
}
