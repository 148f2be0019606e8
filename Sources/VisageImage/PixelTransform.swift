import Foundation

/// A 2-D affine map between pixel coordinate frames, `(x, y) ↦ (a·x + b·y + tx, c·x + d·y + ty)`:
/// the 2×3 matrix `[a b tx; c d ty]`. It drives ``Image/warpAffine(into:width:height:transform:valueRange:border:)``
/// and carries results back from a model's input to the picture. (Named so that it does not collide with
/// Foundation's `AffineTransform` in files that import both.)
///
/// The layout matches OpenCV's 2×3 warp matrices row by row. `concatenating` composes maps the way
/// functions compose, so `s.concatenating(t)` first applies `t`, then `s`.
public struct PixelTransform: Sendable, Hashable, CustomStringConvertible {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public static let identity = PixelTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Whether each output axis moves along one stored axis only: false when x follows x (b = c = 0),
    /// true when the axes are swapped, a quarter turn or a mirror of one (a = d = 0); nil otherwise.
    package var swapsAxes: Bool? {
        if b == 0, c == 0 { return false }
        if a == 0, d == 0 { return true }
        return nil
    }

    public static func translation(x: Double, y: Double) -> PixelTransform {
        PixelTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(x: Double, y: Double) -> PixelTransform {
        PixelTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// Rotation by `angle` radians about the origin; positive angles turn +x towards +y
    /// (clockwise on screen, where y points down).
    public static func rotation(_ angle: Double) -> PixelTransform {
        let (s, c) = (sin(angle), cos(angle))
        return PixelTransform(a: c, b: -s, c: s, d: c, tx: 0, ty: 0)
    }

    /// The map that applies `other` first and then `self`.
    public func concatenating(_ other: PixelTransform) -> PixelTransform {
        PixelTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: a * other.tx + b * other.ty + tx, ty: c * other.tx + d * other.ty + ty)
    }

    public var determinant: Double { a * d - b * c }

    /// The inverse map, nil when the matrix is singular or not finite.
    public var inverted: PixelTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let (ia, ib, ic, id) = (d / det, -b / det, -c / det, a / det)
        return PixelTransform(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ib * ty), ty: -(ic * tx + id * ty))
    }

    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + tx, c * x + d * y + ty)
    }

    public var description: String { "[\(a) \(b) \(tx); \(c) \(d) \(ty)]" }
}

