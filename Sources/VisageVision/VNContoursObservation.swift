import Foundation
import Visage

/// Every contour found in an image: Vision's `VNContoursObservation` over Visage's `ContoursObservation`.
/// Points are normalized to the image (or region of interest), origin at the lower left.
open class VNContoursObservation: VNObservation, @unchecked Sendable {
    public let visageObservation: Visage.ContoursObservation

    init(_ observation: Visage.ContoursObservation, requestRevision: Int) {
        visageObservation = observation
        super.init(confidence: 1, requestRevision: requestRevision)
    }

    public var contourCount: Int { visageObservation.contourCount }
    public var topLevelContourCount: Int { visageObservation.topLevelContourCount }
    public var topLevelContours: [VNContour] { visageObservation.topLevelContours.map(VNContour.init) }

    /// The contour at `contourIndex` in flat order (a contour, its descendants, then its next sibling).
    /// - Throws: an `NSError` in `VNErrorDomain`, code `.outOfBoundsError`, outside `0 ..< contourCount`.
    public func contour(at contourIndex: Int) throws -> VNContour {
        do {
            return VNContour(try visageObservation.contour(at: contourIndex))
        } catch {
            throw VNError(visage: error).nsError
        }
    }

    /// The contour at `indexPath`: `[i]` the i-th top-level contour, `[i, j]` its j-th child.
    /// - Throws: an `NSError` in `VNErrorDomain`, code `.outOfBoundsError`, when the path names no contour.
    public func contour(at indexPath: IndexPath) throws -> VNContour {
        do {
            return VNContour(try visageObservation.contour(at: indexPath))
        } catch {
            throw VNError(visage: error).nsError
        }
    }

    /// Every contour as a closed subpath, in flat order.
    public var normalizedPath: CGPath {
        CGPath(closedPolygons: visageObservation.normalizedPath.subpaths.map { $0.map { CGPoint(x: $0.x, y: $0.y) } })
    }
}
