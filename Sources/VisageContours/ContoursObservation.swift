import Foundation
import VisageGeometry

/// The contours found in an image, as Vision's `ContoursObservation`.
///
/// Contours nest: a top-level contour is the outer border of a shape, its children are the
/// borders of the holes in it, their children the shapes inside those holes, and so on.
/// Flat indices count contours depth first: a contour, then all its descendants, then its next
/// sibling. Siblings are in the order a top-to-bottom, left-to-right scan first meets them.
///
/// ```swift
/// let observation = try await DetectContoursRequest().perform(on: image)
/// for contour in observation.topLevelContours {
///     print(contour.indexPath, contour.pointCount, contour.childContourCount)
/// }
/// let outline = try observation.contour(at: [0, 1])   // the second hole of the first shape
/// ```
public struct ContoursObservation: Sendable {
    let tree: ContourTree

    init(tree: ContourTree) {
        self.tree = tree
    }

    /// The number of contours at every depth.
    public var contourCount: Int { tree.count }

    /// The contours that no other contour encloses.
    public var topLevelContours: [Contour] { tree.topLevel.map { Contour(tree: tree, index: $0) } }

    public var topLevelContourCount: Int { tree.topLevel.count }

    /// All contours in flat depth-first order.
    public var contours: [Contour] { (0 ..< tree.count).map { Contour(tree: tree, index: $0) } }

    /// The contour at `index` in flat depth-first order.
    /// - Throws: ``ContoursError/indexOutOfRange(index:count:)``.
    public func contour(at index: Int) throws(ContoursError) -> Contour {
        guard (0 ..< tree.count).contains(index) else { throw .indexOutOfRange(index: index, count: tree.count) }
        return Contour(tree: tree, index: index)
    }

    /// The contour at `indexPath`: `[i]` is the i-th top-level contour, `[i, j]` its j-th child, …
    /// - Throws: ``ContoursError/invalidIndexPath(_:)`` when the path is empty or leaves the tree.
    public func contour(at indexPath: IndexPath) throws(ContoursError) -> Contour {
        var siblings = tree.topLevel
        var found: Int?
        for position in indexPath {
            guard (0 ..< siblings.count).contains(position) else { throw .invalidIndexPath(indexPath) }
            found = siblings[position]
            siblings = tree.children[siblings[position]]
        }
        guard let found else { throw .invalidIndexPath(indexPath) }
        return Contour(tree: tree, index: found)
    }

    /// Every contour as one closed subpath, in flat order.
    public var normalizedPath: NormalizedPath {
        NormalizedPath(subpaths: (0 ..< tree.count).map { Array(tree.points[tree.pointOffsets[$0] ..< tree.pointOffsets[$0 + 1]]) })
    }

    /// The working image's width over its height, to turn normalized lengths into proportions.
    public var aspectRatio: Float { tree.aspectRatio }
}
