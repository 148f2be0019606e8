/// ML Kit's `VisionPoint`: a point in pixels of the upright image, origin at the top left.
public final class VisionPoint: Sendable, CustomStringConvertible {
    public let x: CGFloat
    public let y: CGFloat

    init(_ point: CGPoint) {
        (x, y) = (point.x, point.y)
    }

    public var description: String { "VisionPoint(x: \(x), y: \(y))" }
}
