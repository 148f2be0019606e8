import Foundation

/// Core Graphics' `CGPathElementType`.
public enum CGPathElementType: Int32, Sendable, Hashable {
    case moveToPoint = 0
    case addLineToPoint = 1
    case addQuadCurveToPoint = 2
    case addCurveToPoint = 3
    case closeSubpath = 4

    /// How many points an element of this type carries.
    var pointCount: Int {
        switch self {
        case .moveToPoint, .addLineToPoint: 1
        case .addQuadCurveToPoint: 2
        case .addCurveToPoint: 3
        case .closeSubpath: 0
        }
    }
}

/// Core Graphics' `CGPathElement`, as `CGPath.applyWithBlock(_:)` hands it out: `points` is valid only
/// during the call and holds as many points as `type` needs.
public struct CGPathElement {
    public var type: CGPathElementType
    public var points: UnsafeMutablePointer<CGPoint>

    public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
        self.type = type
        self.points = points
    }
}

/// Core Graphics' `CGPath`, reduced to what code reads from Vision's `normalizedPath`: the bounding
/// boxes, `isEmpty`, `currentPoint` and element iteration with `applyWithBlock(_:)`.
///
/// Vision's paths hold straight lines only: each contour is one subpath, `moveToPoint`, then
/// `addLineToPoint` for every further point, then `closeSubpath`.
public final class CGPath: Sendable, Equatable {
    /// The elements in order with their points.
    package let elements: [(type: CGPathElementType, points: [CGPoint])]

    package init(elements: [(type: CGPathElementType, points: [CGPoint])]) {
        self.elements = elements
    }

    /// One closed subpath per polygon: move to the first point, lines to the rest, close.
    public convenience init(closedPolygons polygons: [[CGPoint]]) {
        var elements: [(type: CGPathElementType, points: [CGPoint])] = []
        for polygon in polygons where !polygon.isEmpty {
            elements.append((.moveToPoint, [polygon[0]]))
            for point in polygon.dropFirst() { elements.append((.addLineToPoint, [point])) }
            elements.append((.closeSubpath, []))
        }
        self.init(elements: elements)
    }

    public var isEmpty: Bool { elements.isEmpty }

    /// The smallest rectangle holding every point, control points included; `CGRect.null` when empty.
    public var boundingBox: CGRect {
        let points = elements.flatMap(\.points)
        guard let first = points.first else { return .null }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The bounding box of the drawn path; the same as ``boundingBox`` for paths of straight lines.
    public var boundingBoxOfPath: CGRect { boundingBox }

    /// The end of the last element: after `closeSubpath`, the start of that subpath; `.zero` when empty.
    public var currentPoint: CGPoint {
        var start = CGPoint.zero, current = CGPoint.zero
        for element in elements {
            switch element.type {
            case .moveToPoint: start = element.points[0]; current = start
            case .closeSubpath: current = start
            default: current = element.points[element.points.count - 1]
            }
        }
        return current
    }

    /// Calls `block` with each element in order.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        let scratch = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        defer { scratch.deallocate() }
        for element in elements {
            scratch.initialize(repeating: .zero, count: 3)
            for (i, point) in element.points.enumerated() { scratch[i] = point }
            var item = CGPathElement(type: element.type, points: scratch)
            withUnsafePointer(to: &item) { block($0) }
        }
    }

    public static func == (lhs: CGPath, rhs: CGPath) -> Bool {
        lhs.elements.count == rhs.elements.count
            && zip(lhs.elements, rhs.elements).allSatisfy { $0.type == $1.type && $0.points == $1.points }
    }
}
