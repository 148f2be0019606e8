import Foundation
import Visage

/// Every contour found in an image: Vision's iOS 18 `ContoursObservation` with CGFloat coordinates
/// (Visage's own is `Visage.ContoursObservation`).
public struct ContoursObservation: Sendable {
    public let visageObservation: Visage.ContoursObservation

    init(_ observation: Visage.ContoursObservation) {
        visageObservation = observation
    }

    public var contourCount: Int { visageObservation.contourCount }
    public var topLevelContours: [Contour] { visageObservation.topLevelContours.map(Contour.init) }
    public var normalizedPath: CGPath {
        CGPath(closedPolygons: visageObservation.normalizedPath.subpaths.map { $0.map { CGPoint(x: $0.x, y: $0.y) } })
    }

    /// The contour at `index` in flat order; nil outside `0 ..< contourCount`.
    public func contourAtIndex(_ index: Int) -> Contour? {
        (try? visageObservation.contour(at: index)).map(Contour.init)
    }

    /// The contour at `indexPath`; nil when the path names none. (Apple's spelling.)
    public func countourAtIndexPath(_ indexPath: IndexPath) -> Contour? {
        (try? visageObservation.contour(at: indexPath)).map(Contour.init)
    }

    /// One closed outline.
    public struct Contour: Sendable, Hashable {
        public let visageContour: Visage.Contour

        init(_ contour: Visage.Contour) {
            visageContour = contour
        }

        public var aspectRatio: Float { visageContour.aspectRatio }
        public var boundingBox: NormalizedRect { NormalizedRect(visageContour.boundingBox) }
        public var childContours: [Contour] { visageContour.childContours.map(Contour.init) }
        public var indexPath: IndexPath { visageContour.indexPath }
        public var normalizedPath: CGPath {
            CGPath(closedPolygons: [visageContour.normalizedPoints.map { CGPoint(x: $0.x, y: $0.y) }])
        }
        public var normalizedPoints: [simd_float2] {
            visageContour.normalizedPoints.map { simd_float2(Float($0.x), Float($0.y)) }
        }
        public var pointCount: Int { visageContour.pointCount }
        public var points: [NormalizedPoint] { visageContour.normalizedPoints.map(NormalizedPoint.init) }

        /// Simplified by Ramer–Douglas–Peucker within `epsilon` (normalized units).
        /// - Throws: an `NSError` in `VNErrorDomain` when epsilon is negative or not finite.
        public func polygonApproximation(epsilon: Float) throws -> Contour {
            do {
                return Contour(try visageContour.polygonApproximation(epsilon: epsilon))
            } catch {
                throw VNError(visage: error).nsError
            }
        }
    }
}
