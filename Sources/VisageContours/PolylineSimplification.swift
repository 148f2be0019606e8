import VisageGeometry

/// Ramer–Douglas–Peucker polyline simplification.
///
/// Keeps the end points; keeps the point farthest from the line through them when it lies more
/// than epsilon away, and recurses on both halves (the first of equally far points wins).
/// Iterative, so long contours cannot exhaust the stack.
package enum PolylineSimplification {
    /// Indices of the points RDP keeps, ascending, for an open polyline.
    package static func keptIndices(polyline points: [NormalizedPoint], epsilon: Double) -> [Int] {
        guard points.count > 2 else { return Array(points.indices) }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var ranges = [(first: 0, last: points.count - 1)]
        while let (first, last) = ranges.popLast() {
            guard last - first > 1 else { continue }
            let a = points[first], b = points[last]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            var farthest = -1, distance = -1.0
            for index in first + 1 ..< last {
                let p = points[index]
                let d = length == 0
                    ? ((p.x - a.x) * (p.x - a.x) + (p.y - a.y) * (p.y - a.y)).squareRoot()
                    : abs(dx * (a.y - p.y) - dy * (a.x - p.x)) / length
                if d > distance {
                    distance = d
                    farthest = index
                }
            }
            if distance > epsilon {
                keep[farthest] = true
                ranges.append((first, farthest))
                ranges.append((farthest, last))
            }
        }
        return keep.indices.filter { keep[$0] }
    }

    /// Indices RDP keeps for a closed polygon: the polyline from the first point round and back
    /// to it, without the repeated closing point.
    package static func keptIndices(closedPolygon points: [NormalizedPoint], epsilon: Double) -> [Int] {
        guard points.count > 2, let first = points.first else { return Array(points.indices) }
        return keptIndices(polyline: points + [first], epsilon: epsilon).dropLast()
    }
}
