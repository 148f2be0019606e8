import VisageGeometry

/// Areas of closed polygons and of the overlap of two, for contour IoU.
///
/// The overlap is measured by a scanline sweep: the plane is cut into horizontal strips at every
/// vertex height, so inside a strip each polygon's edges are straight segments crossing it
/// completely. At the strip's mid-height the even–odd rule turns each polygon's edge crossings
/// into inside intervals, whose common length times the strip height is the strip's share.
/// That is exact for each polygon alone and differs from the exact overlap only where edges of
/// the two polygons cross inside a strip.
package enum PolygonOverlap {
    package static func boundingBox(of points: ArraySlice<NormalizedPoint>) -> NormalizedRect {
        guard let first = points.first else { return NormalizedRect(x: 0, y: 0, width: 0, height: 0) }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        return NormalizedRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The enclosed area by the shoelace formula, always ≥ 0.
    package static func area(of points: ArraySlice<NormalizedPoint>) -> Double {
        guard points.count > 2 else { return 0 }
        var twice = 0.0
        var previous = points.last!
        for p in points {
            twice += previous.x * p.y - p.x * previous.y
            previous = p
        }
        return abs(twice) / 2
    }

    /// A non-horizontal edge, from its lower to its upper end.
    private struct Edge {
        var y0: Double
        var y1: Double
        var x0: Double
        var slope: Double

        func x(at y: Double) -> Double { x0 + (y - y0) * slope }
    }

    private static func edges(of points: ArraySlice<NormalizedPoint>, within low: Double, _ high: Double) -> [Edge] {
        var edges: [Edge] = []
        var previous = points.last!
        for p in points {
            let (a, b) = previous.y <= p.y ? (previous, p) : (p, previous)
            previous = p
            guard a.y != b.y, b.y > low, a.y < high else { continue }
            edges.append(Edge(y0: a.y, y1: b.y, x0: a.x, slope: (b.x - a.x) / (b.y - a.y)))
        }
        return edges.sorted { $0.y0 < $1.y0 }
    }

    /// The area enclosed by both polygons (even–odd rule).
    package static func intersectionArea(_ a: ArraySlice<NormalizedPoint>, _ b: ArraySlice<NormalizedPoint>) -> Double {
        guard a.count > 2, b.count > 2 else { return 0 }
        let boxA = boundingBox(of: a), boxB = boundingBox(of: b)
        let low = max(boxA.minY, boxB.minY), high = min(boxA.maxY, boxB.maxY)
        guard low < high, max(boxA.minX, boxB.minX) < min(boxA.maxX, boxB.maxX) else { return 0 }
        var heights = [low, high]
        for p in a where p.y > low && p.y < high { heights.append(p.y) }
        for p in b where p.y > low && p.y < high { heights.append(p.y) }
        heights.sort()
        let edgesA = edges(of: a, within: low, high), edgesB = edges(of: b, within: low, high)
        var activeA: [Edge] = [], activeB: [Edge] = []
        var nextA = 0, nextB = 0
        var crossingsA: [Double] = [], crossingsB: [Double] = []
        var total = 0.0
        for k in 0 ..< heights.count - 1 where heights[k] < heights[k + 1] {
            let y = (heights[k] + heights[k + 1]) / 2
            while nextA < edgesA.count && edgesA[nextA].y0 <= y { activeA.append(edgesA[nextA]); nextA += 1 }
            while nextB < edgesB.count && edgesB[nextB].y0 <= y { activeB.append(edgesB[nextB]); nextB += 1 }
            activeA.removeAll { $0.y1 <= y }
            activeB.removeAll { $0.y1 <= y }
            crossingsA.removeAll(keepingCapacity: true)
            crossingsB.removeAll(keepingCapacity: true)
            for edge in activeA { crossingsA.append(edge.x(at: y)) }
            for edge in activeB { crossingsB.append(edge.x(at: y)) }
            crossingsA.sort()
            crossingsB.sort()
            total += overlap(crossingsA, crossingsB) * (heights[k + 1] - heights[k])
        }
        return total
    }

    /// Common length of two sets of inside intervals given as sorted crossings [in, out, in, out, …].
    private static func overlap(_ a: [Double], _ b: [Double]) -> Double {
        var i = 0, j = 0, length = 0.0
        while i + 1 < a.count && j + 1 < b.count {
            length += max(0, min(a[i + 1], b[j + 1]) - max(a[i], b[j]))
            if a[i + 1] < b[j + 1] { i += 2 } else { j += 2 }
        }
        return length
    }
}
