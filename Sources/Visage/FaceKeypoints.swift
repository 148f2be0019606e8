/// The six detector keypoints of a face, each normalized to the image with the origin at the lower
/// left, like ``FaceObservation/boundingBox`` (not to the face box, as Vision's landmark points are).
public struct FaceKeypoints: Sendable, Hashable, Codable {
    public var rightEye: NormalizedPoint
    public var leftEye: NormalizedPoint
    public var noseTip: NormalizedPoint
    public var mouthCenter: NormalizedPoint
    public var rightEarTragion: NormalizedPoint
    public var leftEarTragion: NormalizedPoint

    public init(
        rightEye: NormalizedPoint, leftEye: NormalizedPoint, noseTip: NormalizedPoint, mouthCenter: NormalizedPoint,
        rightEarTragion: NormalizedPoint, leftEarTragion: NormalizedPoint
    ) {
        (self.rightEye, self.leftEye, self.noseTip, self.mouthCenter) = (rightEye, leftEye, noseTip, mouthCenter)
        (self.rightEarTragion, self.leftEarTragion) = (rightEarTragion, leftEarTragion)
    }

    public subscript(keypoint: FaceKeypoint) -> NormalizedPoint {
        switch keypoint {
        case .rightEye: rightEye
        case .leftEye: leftEye
        case .noseTip: noseTip
        case .mouthCenter: mouthCenter
        case .rightEarTragion: rightEarTragion
        case .leftEarTragion: leftEarTragion
        }
    }

    /// From upright-normalized, top-left-origin points in ``FaceKeypoint`` order.
    init(topLeftNormalized points: [SIMD2<Float>]) {
        let p = points.map { NormalizedPoint(x: Double($0.x), y: 1 - Double($0.y)) }
        self.init(rightEye: p[0], leftEye: p[1], noseTip: p[2], mouthCenter: p[3], rightEarTragion: p[4], leftEarTragion: p[5])
    }
}
