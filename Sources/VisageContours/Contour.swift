import Foundation
import VisageGeometry

/// One closed border of a shape or of a hole in it, as Vision's `VNContour`.
///
/// Points are normalized with the origin at the lower left, as Vision reports them; each is the
/// centre of a border pixel of the working image, so a one-pixel shape is a single point and a
/// one-pixel line runs along the pixels and back. Outer borders (even depth) run
/// counter-clockwise as the picture is seen, holes (odd depth) clockwise; OpenCV's
/// `findContours` lists the same points from the same start.
public struct Contour: Sendable, Hashable, CustomStringConvertible {
    let tree: ContourTree
    let index: Int

    init(tree: ContourTree, index: Int) {
        self.tree = tree
        self.index = index
    }

    /// Where the contour sits in the hierarchy: `[i]` for the i-th top-level contour, `[i, j]` for
    /// the j-th child of that, and so on.
    public var indexPath: IndexPath { tree.indexPaths[index] }

    public var pointCount: Int { tree.pointOffsets[index + 1] - tree.pointOffsets[index] }

    public var normalizedPoints: [NormalizedPoint] { Array(points) }

    var points: ArraySlice<NormalizedPoint> { tree.points[tree.pointOffsets[index] ..< tree.pointOffsets[index + 1]] }

    /// The width over the height of the image the contour was found in, as Vision's `aspectRatio`:
    /// multiply normalized x by it to compare horizontal and vertical lengths.
    public var aspectRatio: Float { tree.aspectRatio }

    /// The contours directly inside this one: holes of a shape, shapes inside a hole.
    public var childContours: [Contour] { tree.children[index].map { Contour(tree: tree, index: $0) } }

    public var childContourCount: Int { tree.children[index].count }

    /// - Throws: ``ContoursError/indexOutOfRange(index:count:)``.
    public func childContour(at childIndex: Int) throws(ContoursError) -> Contour {
        let children = tree.children[index]
        guard (0 ..< children.count).contains(childIndex) else {
            throw .indexOutOfRange(index: childIndex, count: children.count)
        }
        return Contour(tree: tree, index: children[childIndex])
    }

    /// The contour simplified by Ramer–Douglas–Peucker: the fewest points that keep every
    /// original point within `epsilon` (normalized units) of the simplified outline.
    ///
    /// The closed contour is treated as a polyline from its first point back to it, so the
    /// first point and the point farthest from it are always kept. The result keeps this
    /// contour's index path and aspect ratio and has no children.
    ///
    /// ```swift
    /// let outline = try contour.polygonApproximation(epsilon: 0.01)   // 1 % of the image size
    /// ```
    /// - Complexity: O(n log n) typical, O(n²) worst case, for n points.
    /// - Throws: ``ContoursError/invalidParameter(name:value:rule:)`` when epsilon is negative or not finite.
    public func polygonApproximation(epsilon: Float) throws(ContoursError) -> Contour {
        guard epsilon.isFinite, epsilon >= 0 else {
            throw .invalidParameter(name: "epsilon", value: "\(epsilon)", rule: "must be a finite number ≥ 0")
        }
        let kept = PolylineSimplification.keptIndices(closedPolygon: Array(points), epsilon: Double(epsilon))
        let base = tree.pointOffsets[index]
        let simplified = kept.map { tree.points[base + $0] }
        let single = ContourTree(
            points: simplified, pointOffsets: [0, simplified.count], indexPaths: [indexPath], children: [[]],
            topLevel: [0], aspectRatio: tree.aspectRatio, gridWidth: tree.gridWidth, gridHeight: tree.gridHeight)
        return Contour(tree: single, index: 0)
    }

    /// The smallest rectangle holding every point, normalized, origin lower-left.
    public var boundingBox: NormalizedRect {
        PolygonOverlap.boundingBox(of: points)
    }

    /// The area the closed outline encloses, as a fraction of the image area (shoelace formula
    /// over the point centres, so single pixels and one-pixel lines enclose 0).
    public var area: Double { PolygonOverlap.area(of: points) }

    /// Intersection over union of the regions this contour and `other` enclose, in 0…1.
    ///
    /// Outlines that enclose no area (single pixels, one-pixel lines) are compared as their
    /// bounding boxes grown by half a pixel of the working image on every side.
    /// - Complexity: O((n + m) log(n + m)) for n and m points.
    public func intersectionOverUnion(with other: Contour) -> Double {
        let areaA = area, areaB = other.area
        if areaA > 0 && areaB > 0 {
            let intersection = PolygonOverlap.intersectionArea(points, other.points)
            let union = areaA + areaB - intersection
            return union > 0 ? min(max(intersection / union, 0), 1) : 0
        }
        if areaA > 0 || areaB > 0 { return 0 }
        return pixelBox.intersectionOverUnion(other.pixelBox)
    }

    /// The bounding box grown by half a pixel of the working grid on each side.
    private var pixelBox: NormalizedRect {
        let box = boundingBox
        let dx = 0.5 / Double(max(tree.gridWidth, 1)), dy = 0.5 / Double(max(tree.gridHeight, 1))
        return NormalizedRect(x: box.minX - dx, y: box.minY - dy, width: box.width + 2 * dx, height: box.height + 2 * dy)
    }

    public static func == (lhs: Contour, rhs: Contour) -> Bool {
        lhs.indexPath == rhs.indexPath && lhs.aspectRatio == rhs.aspectRatio && lhs.points.elementsEqual(rhs.points)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(indexPath)
        hasher.combine(pointCount)
        hasher.combine(points.first)
    }

    public var description: String { "Contour(indexPath: \(Array(indexPath)), pointCount: \(pointCount))" }
}
