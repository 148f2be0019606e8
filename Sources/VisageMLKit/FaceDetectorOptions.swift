/// ML Kit's `FaceDetectorOptions`: a class whose settings are changed after `init()`, with ML Kit's
/// defaults. A detector copies them when it is made.
///
/// ```swift
/// let options = FaceDetectorOptions()
/// options.performanceMode = .accurate
/// options.landmarkMode = .all
/// let faceDetector = FaceDetector.faceDetector(options: options)
/// ```
public class FaceDetectorOptions {
    public var performanceMode: FaceDetectorPerformanceMode = .fast
    public var landmarkMode: FaceDetectorLandmarkMode = .none
    public var contourMode: FaceDetectorContourMode = .none
    public var classificationMode: FaceDetectorClassificationMode = .none
    /// The smallest face to report, as the head's width over the image's width (default 0.1).
    public var minFaceSize: CGFloat = 0.1
    /// Whether faces keep a ``Face/trackingID`` from one call to the next.
    public var isTrackingEnabled = false

    public init() {}
}
