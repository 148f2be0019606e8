/// The borders of a binary image in the order border following met them, with their nesting.
///
/// Points are stored flat, border after border, to keep thousands of borders in two arrays
/// instead of thousands of small ones. Coordinates are pixel columns and rows of the mask,
/// origin at the top left. A border's parent is the border that immediately encloses it:
/// an outer border's parent is a hole (or none), a hole's parent is an outer border.
package struct TracedBorders: Sendable, Hashable {
    package let width: Int
    package let height: Int
    /// x and y of every point, interleaved, border after border.
    package var coordinates: [Int32]
    /// Where each border's points start in `coordinates`, counted in points; one extra entry at
    /// the end holds the total, so border `i` spans `pointOffsets[i] ..< pointOffsets[i + 1]`.
    package var pointOffsets: [Int]
    /// The enclosing border's index, or -1 for a border that only the image frame encloses.
    package var parents: [Int]
    /// True for hole borders (background inside foreground), false for outer borders.
    package var isHole: [Bool]

    package var count: Int { parents.count }

    /// The points of `border` as (x, y) pairs.
    package func points(of border: Int) -> [(x: Int, y: Int)] {
        (pointOffsets[border] ..< pointOffsets[border + 1]).map {
            (Int(coordinates[2 * $0]), Int(coordinates[2 * $0 + 1]))
        }
    }

    /// Children of every border and of the frame (the last entry), in discovery order.
    package func childLists() -> (children: [[Int]], topLevel: [Int]) {
        var children = [[Int]](repeating: [], count: count)
        var topLevel: [Int] = []
        for border in 0 ..< count {
            let parent = parents[border]
            if parent < 0 { topLevel.append(border) } else { children[parent].append(border) }
        }
        return (children, topLevel)
    }

    /// The order and hierarchy OpenCV's `findContours` (RETR_TREE) reports for these borders.
    ///
    /// OpenCV links each new contour at the head of its parent's child list and then walks the
    /// tree depth first, so siblings come out in reverse discovery order. Each hierarchy row is
    /// [next, previous, first child, parent] as positions in `order`, -1 for none.
    package func openCVOrder() -> (order: [Int], hierarchy: [[Int]]) {
        let (children, topLevel) = childLists()
        var order: [Int] = []
        order.reserveCapacity(count)
        // Depth first, pre-order; pushing siblings in discovery order pops the last one first.
        var stack = topLevel
        while let border = stack.popLast() {
            order.append(border)
            stack.append(contentsOf: children[border])
        }
        var position = [Int](repeating: -1, count: count)
        for (index, border) in order.enumerated() { position[border] = index }
        var hierarchy = [[Int]](repeating: [-1, -1, -1, -1], count: count)
        func link(_ siblings: [Int], parent: Int) {
            let reversed = siblings.reversed().map { position[$0] }
            for (k, index) in reversed.enumerated() {
                hierarchy[index][0] = k + 1 < reversed.count ? reversed[k + 1] : -1
                hierarchy[index][1] = k > 0 ? reversed[k - 1] : -1
                hierarchy[index][3] = parent
            }
            if parent >= 0 { hierarchy[parent][2] = reversed.first ?? -1 }
        }
        link(topLevel, parent: -1)
        for border in 0 ..< count { link(children[border], parent: position[border]) }
        return (order, hierarchy)
    }
}
