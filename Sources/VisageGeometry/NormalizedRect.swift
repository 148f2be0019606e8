import Foundation

/// A rectangle in unit coordinates of an image, origin at the lower left, as Vision's
/// `boundingBox`: `origin` is the rectangle's lower-left corner.
public struct NormalizedRect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var origin: NormalizedPoint
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.origin = NormalizedPoint(x: x, y: y)
        self.width = width
        self.height = height
    }

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + width }
    public var maxY: Double { origin.y + height }
    public var midX: Double { origin.x + width / 2 }
    public var midY: Double { origin.y + height / 2 }
    public var area: Double { max(0, width) * max(0, height) }

    /// The rectangle for a pixel rectangle of an image of `imageSize`, measured from `origin`
    /// (for `.upperLeft`, `imageRect.origin` is the rectangle's top-left corner).
    public init(imageRect: CGRect, in imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) {
        let w = Double(imageSize.width), h = Double(imageSize.height)
        let x = Double(imageRect.minX) / w
        let width = Double(imageRect.width) / w
        let height = Double(imageRect.height) / h
        let y = origin == .lowerLeft ? Double(imageRect.minY) / h : 1 - Double(imageRect.maxY) / h
        self.init(x: x, y: y, width: width, height: height)
    }

    /// This rectangle in pixels of an image of `imageSize`, measured from `origin`.
    public func toImageCoordinates(_ imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) -> CGRect {
        let w = Double(imageSize.width), h = Double(imageSize.height)
        let y = origin == .lowerLeft ? minY : 1 - maxY
        return CGRect(x: minX * w, y: y * h, width: width * w, height: height * h)
    }

    /// This rectangle, given in the upright picture, in pixels of the stored buffer of `rawSize`
    /// with `orientation`. Orientations only rotate by right angles and mirror, so the image of
    /// a rectangle is again an axis-aligned rectangle.
    public func toRawImageCoordinates(
        _ rawSize: CGSize, orientation: ImageOrientation, origin: CoordinateOrigin = .lowerLeft
    ) -> CGRect {
        let a = self.origin.toRawImageCoordinates(rawSize, orientation: orientation, origin: origin)
        let b = NormalizedPoint(x: maxX, y: maxY)
            .toRawImageCoordinates(rawSize, orientation: orientation, origin: origin)
        return CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// The upright rectangle for a pixel rectangle of the stored buffer (the inverse of
    /// `toRawImageCoordinates(_:orientation:origin:)`).
    public init(
        rawImageRect: CGRect, in rawSize: CGSize, orientation: ImageOrientation,
        origin: CoordinateOrigin = .lowerLeft
    ) {
        let a = NormalizedPoint(
            rawImagePoint: CGPoint(x: rawImageRect.minX, y: rawImageRect.minY), in: rawSize,
            orientation: orientation, origin: origin)
        let b = NormalizedPoint(
            rawImagePoint: CGPoint(x: rawImageRect.maxX, y: rawImageRect.maxY), in: rawSize,
            orientation: orientation, origin: origin)
        self.init(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// The same rectangle with the vertical axis flipped: lower-left origin to upper-left and back.
    public func verticallyFlipped() -> NormalizedRect {
        NormalizedRect(x: minX, y: 1 - maxY, width: width, height: height)
    }

    /// Intersection over union with `other`; 0 when either is empty.
    public func intersectionOverUnion(_ other: NormalizedRect) -> Double {
        let iw = min(maxX, other.maxX) - max(minX, other.minX)
        let ih = min(maxY, other.maxY) - max(minY, other.minY)
        guard iw > 0, ih > 0 else { return 0 }
        let intersection = iw * ih
        let union = area + other.area - intersection
        return union > 0 ? intersection / union : 0
    }

    public var description: String { "(x: \(minX), y: \(minY), width: \(width), height: \(height))" }
}
