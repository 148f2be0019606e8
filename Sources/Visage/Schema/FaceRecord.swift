/// One face as the CLI's `--json`, the service and the web page carry it: one definition for all three.
///
/// Coordinates are in the upright picture (EXIF orientation applied). `frame`, `keypoints` and every
/// point list are pixels with the origin at the top left; `boundingBox` is Vision's normalized rectangle
/// with the origin at the lower left. Angles are degrees with ML Kit's signs. Left and right are the
/// subject's. Optional members are present only when their ``FaceFeatures`` were asked for.
public struct FaceRecord: Codable, Sendable, Equatable {
    public struct Rect: Codable, Sendable, Equatable {
        public var x, y, width, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    public struct Point: Codable, Sendable, Equatable {
        public var x, y: Double
        public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }
    }

    public struct Point3: Codable, Sendable, Equatable {
        public var x, y, z: Double
        public init(x: Double, y: Double, z: Double) { (self.x, self.y, self.z) = (x, y, z) }
    }

    /// Pixels, origin top left.
    public var frame: Rect
    /// Normalized, origin lower left (Vision's convention).
    public var boundingBox: Rect
    public var confidence: Float
    /// Degrees: roll is ML Kit's Z (counter-clockwise +), yaw its Y, pitch its X (up +).
    public var roll, yaw, pitch: Double
    /// The detector's six keypoints by name, pixels.
    public var keypoints: [String: Point]
    /// Vision's regions by name, pixels.
    public var landmarks: [String: [Point]]?
    /// ML Kit's ten landmarks by name, pixels.
    public var mlkitLandmarks: [String: Point]?
    /// ML Kit's fifteen contours by name, pixels.
    public var contours: [String: [Point]]?
    /// 478 points: x, y in pixels, z relative depth in pixels (the image width's scale).
    public var mesh: [Point3]?
    /// ARKit-named blendshape coefficients, 0…1 (MediaPipe's model has no `tongueOut`).
    public var blendshapes: [String: Float]?
    public var smilingProbability: Float?
    public var leftEyeOpenProbability: Float?
    public var rightEyeOpenProbability: Float?
    public var captureQuality: Float?

    public init(
        frame: Rect, boundingBox: Rect, confidence: Float, roll: Double, yaw: Double, pitch: Double,
        keypoints: [String: Point]
    ) {
        self.frame = frame
        self.boundingBox = boundingBox
        self.confidence = confidence
        (self.roll, self.yaw, self.pitch) = (roll, yaw, pitch)
        self.keypoints = keypoints
    }
}
