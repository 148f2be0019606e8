import VisageGeometry

/// Every contour of an observation as a closed polyline, the portable stand-in for Vision's
/// `normalizedPath` (a `CGPath`): one subpath per contour in flat depth-first order, each
/// implicitly closed from its last point back to its first. Coordinates are normalized with the
/// origin at the lower left.
public struct NormalizedPath: Sendable, Hashable {
    public var subpaths: [[NormalizedPoint]]

    public init(subpaths: [[NormalizedPoint]]) {
        self.subpaths = subpaths
    }

    public var isEmpty: Bool { subpaths.isEmpty }
}
