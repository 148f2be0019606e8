import VisageContours

/// The contours of one image as `visage contours --json` prints them and `POST /v1/contours` answers.
///
/// Points are Vision's: normalized to the image, origin at the lower left.
public struct ContoursRecord: Codable, Sendable, Equatable {
    /// One contour: its place in the hierarchy (`[2, 0]` is the first child of the third top-level
    /// contour), and its points.
    public struct Entry: Codable, Sendable, Equatable {
        public var indexPath: [Int]
        public var pointCount: Int
        /// `[x, y]` pairs.
        public var normalizedPoints: [[Double]]

        public init(indexPath: [Int], pointCount: Int, normalizedPoints: [[Double]]) {
            (self.indexPath, self.pointCount, self.normalizedPoints) = (indexPath, pointCount, normalizedPoints)
        }
    }

    /// The image as the caller named it.
    public var image: String
    public var contourCount: Int
    /// Absent for contour art, which has no hierarchy.
    public var topLevelContourCount: Int?
    /// Every contour, depth first.
    public var contours: [Entry]

    public init(image: String, contourCount: Int, topLevelContourCount: Int?, contours: [Entry]) {
        (self.image, self.contourCount, self.topLevelContourCount, self.contours) = (image, contourCount, topLevelContourCount, contours)
    }

    /// The record of `contours`; `topLevel` is the observation's top-level count (nil for art).
    public init(image: String, contours: [Contour], topLevel: Int?) {
        self.init(
            image: image, contourCount: contours.count, topLevelContourCount: topLevel,
            contours: contours.map {
                Entry(indexPath: Array($0.indexPath), pointCount: $0.pointCount, normalizedPoints: $0.normalizedPoints.map { [$0.x, $0.y] })
            })
    }
}
