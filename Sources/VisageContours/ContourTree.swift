import Foundation
import VisageGeometry

/// The shared, immutable storage behind an observation's contours.
///
/// Contours are stored in depth-first order (a contour, then its descendants, then its next
/// sibling), so a contour's position here is its flat index. Points of all contours live in one
/// array; `Contour` values are a reference to this and an index, cheap to copy and free of
/// recursion however deep the nesting.
final class ContourTree: Sendable {
    /// Every contour's points, contour after contour.
    let points: [NormalizedPoint]
    /// Contour `i` spans `pointOffsets[i] ..< pointOffsets[i + 1]` of `points`.
    let pointOffsets: [Int]
    let indexPaths: [IndexPath]
    /// Flat indices of each contour's children, in the order border following met them.
    let children: [[Int]]
    let topLevel: [Int]
    /// The working image's width over its height.
    let aspectRatio: Float
    /// Width and height of the pixel grid the contours were traced on.
    let gridWidth: Int
    let gridHeight: Int

    init(
        points: [NormalizedPoint], pointOffsets: [Int], indexPaths: [IndexPath], children: [[Int]], topLevel: [Int],
        aspectRatio: Float, gridWidth: Int, gridHeight: Int
    ) {
        self.points = points
        self.pointOffsets = pointOffsets
        self.indexPaths = indexPaths
        self.children = children
        self.topLevel = topLevel
        self.aspectRatio = aspectRatio
        self.gridWidth = gridWidth
        self.gridHeight = gridHeight
    }

    var count: Int { indexPaths.count }

    /// The tree of traced borders with points normalized to the grid, origin lower-left: pixel
    /// (x, y) counted from the top left becomes ((x + 0.5) / width, 1 − (y + 0.5) / height), the
    /// pixel's centre.
    convenience init(borders: TracedBorders) {
        let (children, topLevel) = borders.childLists()
        // Depth-first order with index paths, without recursion.
        var order: [Int] = []
        order.reserveCapacity(borders.count)
        var paths = [IndexPath](repeating: [], count: borders.count)
        var stack: [Int] = []
        for (index, border) in topLevel.enumerated().reversed() {
            paths[border] = [index]
            stack.append(border)
        }
        while let border = stack.popLast() {
            order.append(border)
            for (index, child) in children[border].enumerated().reversed() {
                paths[child] = paths[border].appending(index)
                stack.append(child)
            }
        }
        var flatIndex = [Int](repeating: 0, count: borders.count)
        for (index, border) in order.enumerated() { flatIndex[border] = index }

        let width = Double(borders.width), height = Double(borders.height)
        var points: [NormalizedPoint] = []
        points.reserveCapacity(borders.coordinates.count / 2)
        var offsets = [0]
        offsets.reserveCapacity(borders.count + 1)
        borders.coordinates.withUnsafeBufferPointer { xy in
            for border in order {
                for point in borders.pointOffsets[border] ..< borders.pointOffsets[border + 1] {
                    points.append(NormalizedPoint(
                        x: (Double(xy[2 * point]) + 0.5) / width, y: 1 - (Double(xy[2 * point + 1]) + 0.5) / height))
                }
                offsets.append(points.count)
            }
        }
        self.init(
            points: points, pointOffsets: offsets, indexPaths: order.map { paths[$0] },
            children: order.map { children[$0].map { flatIndex[$0] } }, topLevel: topLevel.map { flatIndex[$0] },
            aspectRatio: borders.height > 0 ? Float(width / height) : 1,
            gridWidth: borders.width, gridHeight: borders.height)
    }
}
