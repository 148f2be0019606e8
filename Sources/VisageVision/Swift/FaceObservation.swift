import Foundation
import Visage

/// A face, Vision's iOS 18 `FaceObservation` with CGFloat coordinates (Visage's own, with Double
/// coordinates and more members, is `Visage.FaceObservation`).
public struct FaceObservation: Sendable, Hashable {
    public let uuid: UUID
    public let confidence: Float
    /// Normalized, origin at the lower left.
    public var boundingBox: NormalizedRect
    public let roll: Measurement<UnitAngle>
    public let yaw: Measurement<UnitAngle>
    public let pitch: Measurement<UnitAngle>
    public let landmarks: Landmarks2D?
    public let captureQuality: CaptureQuality?
    /// Visage's observation this one shows.
    public let visageObservation: Visage.FaceObservation

    init(_ face: Visage.FaceObservation) {
        visageObservation = face
        uuid = face.uuid
        confidence = face.confidence
        boundingBox = NormalizedRect(face.boundingBox)
        roll = face.roll
        yaw = face.yaw
        pitch = face.pitch
        landmarks = face.landmarks.map { Landmarks2D($0, confidence: face.analysis?.mesh.presence ?? face.confidence) }
        captureQuality = face.captureQuality.map(CaptureQuality.init)
    }

    /// The same face as a classic observation shows it.
    public init(_ observation: VNFaceObservation) {
        self.init(observation.visageObservation)
    }

    /// A face the caller knows, for `inputFaceObservations`: confidence 1, angles 0, no landmarks.
    public init(boundingBox: NormalizedRect, revision: DetectFaceRectanglesRequest.Revision? = nil) {
        self.init(VNFaceObservation(requestRevision: 3, boundingBox: boundingBox.cgRect, roll: nil, yaw: nil, pitch: nil))
    }

    /// How suitable the capture is.
    public struct CaptureQuality: Sendable, Hashable {
        /// 0…1, for ranking captures of one face.
        public let score: Float
        init(_ score: Float) { self.score = score }
    }

    public static func == (lhs: FaceObservation, rhs: FaceObservation) -> Bool {
        lhs.visageObservation == rhs.visageObservation && lhs.boundingBox == rhs.boundingBox
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuid)
    }
}

extension FaceObservation {
    /// Vision's landmark regions (Visage's tracing on its face mesh), all present.
    public struct Landmarks2D: Sendable, Hashable {
        public let confidence: Float
        public let allPoints: Region
        public let faceContour: Region
        public let leftEye: Region
        public let rightEye: Region
        public let leftEyebrow: Region
        public let rightEyebrow: Region
        public let nose: Region
        public let noseCrest: Region
        public let medianLine: Region
        public let outerLips: Region
        public let innerLips: Region
        public let leftPupil: Region
        public let rightPupil: Region

        init(_ landmarks: FaceLandmarks2D, confidence: Float) {
            self.confidence = confidence
            allPoints = Region(landmarks.allPoints)
            faceContour = Region(landmarks.faceContour)
            leftEye = Region(landmarks.leftEye)
            rightEye = Region(landmarks.rightEye)
            leftEyebrow = Region(landmarks.leftEyebrow)
            rightEyebrow = Region(landmarks.rightEyebrow)
            nose = Region(landmarks.nose)
            noseCrest = Region(landmarks.noseCrest)
            medianLine = Region(landmarks.medianLine)
            outerLips = Region(landmarks.outerLips)
            innerLips = Region(landmarks.innerLips)
            leftPupil = Region(landmarks.leftPupil)
            rightPupil = Region(landmarks.rightPupil)
        }

        /// One feature's points, normalized to the face's bounding box, origin at its lower left.
        public struct Region: Sendable, Hashable {
            public enum PointsClassification: Sendable, Hashable {
                case disconnected
                case openPath
                case closedPath
            }

            public let points: [NormalizedPoint]
            public let pointsClassification: PointsClassification
            /// Given by Vision only for its 76-point set: always nil here.
            public let precisionEstimatesPerPoint: [Float]?
            /// Visage's region this one shows.
            public let visageRegion: FaceLandmarkRegion

            init(_ region: FaceLandmarkRegion) {
                visageRegion = region
                points = region.points.map(NormalizedPoint.init)
                precisionEstimatesPerPoint = nil
                switch region.pointsClassification {
                case .disconnected: pointsClassification = .disconnected
                case .openPath: pointsClassification = .openPath
                case .closedPath: pointsClassification = .closedPath
                }
            }

            /// The points in pixels of the image of `imageSize`, measured from `origin`.
            public func pointsInImageCoordinates(_ imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) -> [CGPoint] {
                visageRegion.pointsInImage(imageSize: imageSize, origin: origin)
            }
        }
    }
}
