import Foundation
import Visage

/// How a region's points connect (iOS 16).
@frozen public enum VNPointsClassification: Int, Sendable, Hashable {
    case disconnected = 0
    case openPath = 1
    case closedPath = 2
}

/// Vision's `VNFaceLandmarks`: a confidence for the landmarks as a whole (the face mesh's presence score).
open class VNFaceLandmarks: NSObject, @unchecked Sendable {
    public let confidence: VNConfidence

    init(confidence: VNConfidence) {
        self.confidence = confidence
    }
}

/// Vision's landmark regions, traced on Visage's 478-point face mesh (see Visage's `FaceLandmarks2D` for
/// the points of each region). Left and right are the subject's. Every region is present when landmarks are.
///
/// The regions' point counts are Visage's (159 points in `allPoints`), not those of Vision's 65- or
/// 76-point constellations, which Apple does not document region by region.
open class VNFaceLandmarks2D: VNFaceLandmarks, @unchecked Sendable {
    public let allPoints: VNFaceLandmarkRegion2D?
    public let faceContour: VNFaceLandmarkRegion2D?
    public let leftEye: VNFaceLandmarkRegion2D?
    public let rightEye: VNFaceLandmarkRegion2D?
    public let leftEyebrow: VNFaceLandmarkRegion2D?
    public let rightEyebrow: VNFaceLandmarkRegion2D?
    public let nose: VNFaceLandmarkRegion2D?
    public let noseCrest: VNFaceLandmarkRegion2D?
    public let medianLine: VNFaceLandmarkRegion2D?
    public let outerLips: VNFaceLandmarkRegion2D?
    public let innerLips: VNFaceLandmarkRegion2D?
    public let leftPupil: VNFaceLandmarkRegion2D?
    public let rightPupil: VNFaceLandmarkRegion2D?

    init(_ landmarks: FaceLandmarks2D, confidence: VNConfidence) {
        allPoints = VNFaceLandmarkRegion2D(landmarks.allPoints)
        faceContour = VNFaceLandmarkRegion2D(landmarks.faceContour)
        leftEye = VNFaceLandmarkRegion2D(landmarks.leftEye)
        rightEye = VNFaceLandmarkRegion2D(landmarks.rightEye)
        leftEyebrow = VNFaceLandmarkRegion2D(landmarks.leftEyebrow)
        rightEyebrow = VNFaceLandmarkRegion2D(landmarks.rightEyebrow)
        nose = VNFaceLandmarkRegion2D(landmarks.nose)
        noseCrest = VNFaceLandmarkRegion2D(landmarks.noseCrest)
        medianLine = VNFaceLandmarkRegion2D(landmarks.medianLine)
        outerLips = VNFaceLandmarkRegion2D(landmarks.outerLips)
        innerLips = VNFaceLandmarkRegion2D(landmarks.innerLips)
        leftPupil = VNFaceLandmarkRegion2D(landmarks.leftPupil)
        rightPupil = VNFaceLandmarkRegion2D(landmarks.rightPupil)
        super.init(confidence: confidence)
    }
}

/// Vision's `VNFaceLandmarkRegion`: how many points a region has.
open class VNFaceLandmarkRegion: NSObject, @unchecked Sendable {
    public let pointCount: Int

    init(pointCount: Int) {
        self.pointCount = pointCount
    }
}

/// One landmark region: points normalized to the face's bounding box, origin at its lower left.
open class VNFaceLandmarkRegion2D: VNFaceLandmarkRegion, @unchecked Sendable {
    /// Visage's region this one shows.
    public let visageRegion: FaceLandmarkRegion

    init(_ region: FaceLandmarkRegion) {
        visageRegion = region
        super.init(pointCount: region.pointCount)
    }

    /// The points normalized to the face box, origin at its lower left: (0, 0) is the box's bottom-left corner.
    public var normalizedPoints: [CGPoint] {
        visageRegion.points.map { CGPoint(x: $0.x, y: $0.y) }
    }

    /// The points in pixels of an image of `imageSize`, origin at the LOWER left as Vision's (flip y
    /// with `imageSize.height - y` to draw in top-left coordinates).
    public func pointsInImage(imageSize: CGSize) -> [CGPoint] {
        visageRegion.pointsInImage(imageSize: imageSize, origin: .lowerLeft)
    }

    /// Per-point precision, which Vision gives only for the 76-point constellation: always nil here.
    public var precisionEstimatesPerPoint: [Float]? { nil }

    public var pointsClassification: VNPointsClassification {
        switch visageRegion.pointsClassification {
        case .disconnected: .disconnected
        case .openPath: .openPath
        case .closedPath: .closedPath
        }
    }
}
