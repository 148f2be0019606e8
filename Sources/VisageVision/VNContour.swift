import Foundation
import Visage

/// One closed outline: Vision's `VNContour` over Visage's `Contour`.
open class VNContour: NSObject, @unchecked Sendable {
    public let visageContour: Contour

    init(_ contour: Contour) {
        visageContour = contour
    }

    public var indexPath: IndexPath { visageContour.indexPath }
    public var pointCount: Int { visageContour.pointCount }
    /// The points normalized to the image, origin at the lower left.
    public var normalizedPoints: [simd_float2] {
        visageContour.normalizedPoints.map { simd_float2(Float($0.x), Float($0.y)) }
    }
    /// The outline as one closed subpath.
    public var normalizedPath: CGPath {
        CGPath(closedPolygons: [visageContour.normalizedPoints.map { CGPoint(x: $0.x, y: $0.y) }])
    }
    /// The image's width over its height.
    public var aspectRatio: Float { visageContour.aspectRatio }
    public var childContourCount: Int { visageContour.childContourCount }
    public var childContours: [VNContour] { visageContour.childContours.map(VNContour.init) }

    /// - Throws: an `NSError` in `VNErrorDomain`, code `.outOfBoundsError`, outside `0 ..< childContourCount`.
    public func childContour(at childContourIndex: Int) throws -> VNContour {
        do {
            return VNContour(try visageContour.childContour(at: childContourIndex))
        } catch {
            throw VNError(visage: error).nsError
        }
    }

    /// The outline simplified by Ramer–Douglas–Peucker within `epsilon` (normalized units).
    /// - Throws: an `NSError` in `VNErrorDomain`, code `.invalidOption`, when epsilon is negative or not finite.
    public func polygonApproximation(epsilon: Float) throws -> VNContour {
        do {
            return VNContour(try visageContour.polygonApproximation(epsilon: epsilon))
        } catch {
            throw VNError(visage: error).nsError
        }
    }
}
