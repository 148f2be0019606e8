import Foundation
import Visage

/// Where pixel coordinates start: Visage's own `CoordinateOrigin`, which has Vision's two cases.
public typealias CoordinateOrigin = Visage.CoordinateOrigin

/// A point normalized to an image, origin at the lower left, with CGFloat coordinates: Vision's iOS 18
/// `NormalizedPoint` (Visage's own type of that name uses Double; write `Visage.NormalizedPoint` for it).
public struct NormalizedPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: CGFloat
    public var y: CGFloat

    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }

    public init(normalizedPoint: CGPoint) {
        self.init(x: normalizedPoint.x, y: normalizedPoint.y)
    }

    /// The point for a pixel position (origin lower left) in an image of `imageSize`.
    public init(imagePoint: CGPoint, in imageSize: CGSize) {
        self.init(x: imagePoint.x / imageSize.width, y: imagePoint.y / imageSize.height)
    }

    /// The point for a pixel position, normalized to `regionOfInterest` of an image of `imageSize`.
    public init(imagePoint: CGPoint, in imageSize: CGSize, normalizedTo regionOfInterest: NormalizedRect) {
        let roi = regionOfInterest.toImageCoordinates(imageSize)
        self.init(x: (imagePoint.x - roi.minX) / roi.width, y: (imagePoint.y - roi.minY) / roi.height)
    }

    public static let zero = NormalizedPoint(x: 0, y: 0)

    public var cgPoint: CGPoint { CGPoint(x: x, y: y) }

    /// The point in pixels of an image of `imageSize`, measured from `origin`.
    public func toImageCoordinates(_ imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) -> CGPoint {
        CGPoint(x: x * imageSize.width, y: (origin == .lowerLeft ? y : 1 - y) * imageSize.height)
    }

    /// The point, normalized to `regionOfInterest`, in pixels of the whole image of `imageSize`.
    public func toImageCoordinates(
        from regionOfInterest: NormalizedRect, imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft
    ) -> CGPoint {
        let roi = regionOfInterest
        return NormalizedPoint(x: roi.origin.x + x * roi.width, y: roi.origin.y + y * roi.height)
            .toImageCoordinates(imageSize, origin: origin)
    }

    public var description: String { "(\(x), \(y))" }
}

extension NormalizedPoint {
    init(_ point: Visage.NormalizedPoint) {
        self.init(x: point.x, y: point.y)
    }
}
