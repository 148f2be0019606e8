/// Firebase's `VisionPoint`: pixels of the upright image, origin top left, as `NSNumber`s; `z` is nil
/// (2-D detection).
public final class VisionPoint: @unchecked Sendable, CustomStringConvertible {
    public let x: NSNumber
    public let y: NSNumber
    public let z: NSNumber?

    init(x: CGFloat, y: CGFloat) {
        (self.x, self.y, z) = (NSNumber(value: Double(x)), NSNumber(value: Double(y)), nil)
    }

    public var description: String { "VisionPoint(x: \(x), y: \(y))" }
}
