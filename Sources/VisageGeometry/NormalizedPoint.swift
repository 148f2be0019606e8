import Foundation

/// A point in unit coordinates of an image, origin at the lower left, as Vision reports them:
/// (0, 0) is the bottom-left corner and (1, 1) the top-right, whatever the image's pixel size.
public struct NormalizedPoint: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The point for a pixel position in an image of `imageSize`, measured from `origin`.
    public init(imagePoint: CGPoint, in imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) {
        let x = Double(imagePoint.x) / Double(imageSize.width)
        let y = Double(imagePoint.y) / Double(imageSize.height)
        self.init(x: x, y: origin == .lowerLeft ? y : 1 - y)
    }

    /// This point in pixels of an image of `imageSize`, measured from `origin`.
    public func toImageCoordinates(_ imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) -> CGPoint {
        let y = origin == .lowerLeft ? y : 1 - y
        return CGPoint(x: x * Double(imageSize.width), y: y * Double(imageSize.height))
    }

    /// This point, given in the upright picture, in pixels of the stored buffer whose pixels are
    /// `rawSize` and whose orientation is `orientation`, measured from `origin` of that buffer.
    public func toRawImageCoordinates(
        _ rawSize: CGSize, orientation: ImageOrientation, origin: CoordinateOrigin = .lowerLeft
    ) -> CGPoint {
        let raw = orientation.rawUnitPoint(fromUpright: x, 1 - y)
        let y = origin == .upperLeft ? raw.y : 1 - raw.y
        return CGPoint(x: raw.x * Double(rawSize.width), y: y * Double(rawSize.height))
    }

    /// The upright point for a pixel position in the stored buffer (the inverse of
    /// `toRawImageCoordinates(_:orientation:origin:)`).
    public init(
        rawImagePoint: CGPoint, in rawSize: CGSize, orientation: ImageOrientation,
        origin: CoordinateOrigin = .lowerLeft
    ) {
        let x = Double(rawImagePoint.x) / Double(rawSize.width)
        var y = Double(rawImagePoint.y) / Double(rawSize.height)
        if origin == .lowerLeft { y = 1 - y }
        let upright = orientation.uprightUnitPoint(fromRaw: x, y)
        self.init(x: upright.u, y: 1 - upright.v)
    }

    public var description: String { "(\(x), \(y))" }
}
