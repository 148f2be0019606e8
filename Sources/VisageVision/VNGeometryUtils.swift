import Foundation

/// A point in normalized coordinates: Vision's `VNPoint`.
open class VNPoint: NSObject, @unchecked Sendable {
    public let x: Double
    public let y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public convenience init(location: CGPoint) {
        self.init(x: Double(location.x), y: Double(location.y))
    }

    public var location: CGPoint { CGPoint(x: x, y: y) }
    public class var zero: VNPoint { VNPoint(x: 0, y: 0) }

    public class func distanceBetweenPoint(_ point1: VNPoint, _ point2: VNPoint) -> Double {
        point1.distance(point2)
    }

    public func distance(_ point: VNPoint) -> Double {
        ((x - point.x) * (x - point.x) + (y - point.y) * (y - point.y)).squareRoot()
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? VNPoint else { return false }
        return x == other.x && y == other.y
    }
}

/// A circle: Vision's `VNCircle`.
open class VNCircle: NSObject, @unchecked Sendable {
    public let center: VNPoint
    public let radius: Double

    public init(center: VNPoint, radius: Double) {
        self.center = center
        self.radius = radius
    }

    public convenience init(center: VNPoint, diameter: Double) {
        self.init(center: center, radius: diameter / 2)
    }

    public var diameter: Double { 2 * radius }
    public class var zero: VNCircle { VNCircle(center: .zero, radius: 0) }

    public func containsPoint(_ point: VNPoint) -> Bool { center.distance(point) <= radius }
}

/// Vision's geometry helpers for contours and points.
///
/// Apple leaves units open; here `boundingCircle(for: VNContour)` works with x multiplied by the
/// contour's `aspectRatio` (so the circle is round in the picture) and returns its centre in that
/// space (x from 0 to aspectRatio, y from 0 to 1) with the radius in units of the image height; the point
/// versions take points as they are. Area and perimeter are in normalized units (fractions of the
/// image area and of its sides); the area is the shoelace formula over the points, positive for
/// counter-clockwise outlines when oriented.
open class VNGeometryUtils: NSObject {
    /// The smallest circle enclosing the contour.
    /// - Throws: an `NSError` in `VNErrorDomain`, code `.invalidArgument`, for a contour without points.
    public class func boundingCircle(for contour: VNContour) throws -> VNCircle {
        let aspect = Double(contour.aspectRatio)
        return try circle(contour.visageContour.normalizedPoints.map { SIMD2($0.x * aspect, $0.y) })
    }

    public class func boundingCircle(for points: [VNPoint]) throws -> VNCircle {
        try circle(points.map { SIMD2($0.x, $0.y) })
    }

    public class func boundingCircle(forSIMDPoints points: UnsafePointer<simd_float2>, pointCount: Int) throws -> VNCircle {
        try circle(UnsafeBufferPointer(start: points, count: max(pointCount, 0)).map { SIMD2(Double($0.x), Double($0.y)) })
    }

    public class func calculateArea(_ area: UnsafeMutablePointer<Double>, for contour: VNContour, orientedArea: Bool) throws {
        let points = contour.visageContour.normalizedPoints
        guard let last = points.last else { throw VNError(.invalidArgument, "the contour has no points").nsError }
        var twice = 0.0
        var previous = last
        for p in points {
            twice += previous.x * p.y - p.x * previous.y
            previous = p
        }
        area.pointee = orientedArea ? twice / 2 : abs(twice) / 2
    }

    public class func calculatePerimeter(_ perimeter: UnsafeMutablePointer<Double>, for contour: VNContour) throws {
        let points = contour.visageContour.normalizedPoints
        guard let last = points.last else { throw VNError(.invalidArgument, "the contour has no points").nsError }
        var length = 0.0
        var previous = last
        for p in points {
            length += ((p.x - previous.x) * (p.x - previous.x) + (p.y - previous.y) * (p.y - previous.y)).squareRoot()
            previous = p
        }
        perimeter.pointee = length
    }

    /// Welzl's minimum enclosing circle, iteratively, over points in a fixed shuffled order.
    static func circle(_ input: [SIMD2<Double>]) throws -> VNCircle {
        guard !input.isEmpty else { throw VNError(.invalidArgument, "no points to enclose").nsError }
        guard input.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw VNError(.invalidArgument, "points must be finite").nsError
        }
        var points = input
        var generator = SplitMix(seed: UInt64(points.count))
        points.shuffle(using: &generator)
        var center = points[0], radius = 0.0
        func inside(_ p: SIMD2<Double>) -> Bool { distance(p, center) <= radius * (1 + 1e-12) + 1e-15 }
        for i in points.indices where !inside(points[i]) {
            center = points[i]; radius = 0
            for j in 0 ..< i where !inside(points[j]) {
                center = (points[i] + points[j]) / 2
                radius = distance(points[i], center)
                for k in 0 ..< j where !inside(points[k]) {
                    (center, radius) = circumcircle(points[i], points[j], points[k])
                }
            }
        }
        return VNCircle(center: VNPoint(x: center.x, y: center.y), radius: radius)
    }

    private static func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let d = a - b
        return (d * d).sum().squareRoot()
    }

    /// The circle through three points; for (nearly) collinear points, the one on the farthest pair.
    private static func circumcircle(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> (SIMD2<Double>, Double) {
        let bx = b.x - a.x, by = b.y - a.y, cx = c.x - a.x, cy = c.y - a.y
        let d = 2 * (bx * cy - by * cx)
        if abs(d) < 1e-18 {
            let pairs = [(a, b), (a, c), (b, c)].max { distance($0.0, $0.1) < distance($1.0, $1.1) }!
            let center = (pairs.0 + pairs.1) / 2
            return (center, distance(pairs.0, center))
        }
        let b2 = bx * bx + by * by, c2 = cx * cx + cy * cy
        let center = SIMD2(a.x + (cy * b2 - by * c2) / d, a.y + (bx * c2 - cx * b2) / d)
        return (center, max(distance(center, a), distance(center, b), distance(center, c)))
    }
}

/// A small deterministic generator, so the circle does not depend on the system's random numbers.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
