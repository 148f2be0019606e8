import Foundation
import Visage

/// A rectangle normalized to an image, origin (its lower-left corner) at the image's lower left, with
/// CGFloat coordinates: Vision's iOS 18 `NormalizedRect` (Visage's own uses Double: `Visage.NormalizedRect`).
public struct NormalizedRect: Hashable, Sendable, CustomStringConvertible {
    public var origin: NormalizedPoint
    public var width: CGFloat
    public var height: CGFloat

    public init(x: CGFloat, y: CGFloat, width: CGFloat, height: CGFloat) {
        origin = NormalizedPoint(x: x, y: y)
        self.width = width
        self.height = height
    }

    public init(normalizedRect: CGRect) {
        self.init(x: normalizedRect.minX, y: normalizedRect.minY, width: normalizedRect.width, height: normalizedRect.height)
    }

    /// The rectangle for a pixel rectangle (origin lower left) of an image of `imageSize`.
    public init(imageRect: CGRect, in imageSize: CGSize) {
        self.init(
            x: imageRect.minX / imageSize.width, y: imageRect.minY / imageSize.height,
            width: imageRect.width / imageSize.width, height: imageRect.height / imageSize.height)
    }

    /// The rectangle for a pixel rectangle, normalized to `regionOfInterest` of an image of `imageSize`.
    public init(imageRect: CGRect, in imageSize: CGSize, normalizedTo regionOfInterest: NormalizedRect) {
        let roi = regionOfInterest.toImageCoordinates(imageSize)
        self.init(
            x: (imageRect.minX - roi.minX) / roi.width, y: (imageRect.minY - roi.minY) / roi.height,
            width: imageRect.width / roi.width, height: imageRect.height / roi.height)
    }

    /// The whole image: (0, 0, 1, 1).
    public static let fullImage = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    public var cgRect: CGRect { CGRect(x: origin.x, y: origin.y, width: width, height: height) }

    /// The rectangle in pixels of an image of `imageSize`, measured from `origin` (for `.upperLeft`
    /// the result's origin is its top-left corner).
    public func toImageCoordinates(_ imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) -> CGRect {
        let y = origin == .lowerLeft ? self.origin.y : 1 - self.origin.y - height
        return CGRect(x: self.origin.x * imageSize.width, y: y * imageSize.height,
                      width: width * imageSize.width, height: height * imageSize.height)
    }

    /// The rectangle, normalized to `regionOfInterest`, in pixels of the whole image of `imageSize`.
    public func toImageCoordinates(
        from regionOfInterest: NormalizedRect, imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft
    ) -> CGRect {
        let roi = regionOfInterest
        return NormalizedRect(
            x: roi.origin.x + self.origin.x * roi.width, y: roi.origin.y + self.origin.y * roi.height,
            width: width * roi.width, height: height * roi.height
        ).toImageCoordinates(imageSize, origin: origin)
    }

    public var description: String { "(x: \(origin.x), y: \(origin.y), width: \(width), height: \(height))" }
}

extension NormalizedRect {
    init(_ rect: Visage.NormalizedRect) {
        self.init(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height)
    }
}
