import VisageImage

/// Detects faces with ML Kit's API shape: `FaceDetector(options:)`, then `process(_:)` per image.
///
/// ```swift
/// let detector = FaceDetector(options: .init(performanceMode: .accurate, minFaceSize: 0.02))
/// for face in try detector.process(image) { print(face.frame, face.headEulerAngleZ) }
/// ```
/// Models load once per process and are shared; a detector is a cheap value, safe to use from any task.
public struct FaceDetector: Sendable {
    public let options: FaceDetectorOptions

    public init(options: FaceDetectorOptions = .init()) {
        self.options = options
    }

    /// The faces in `image` at least `minFaceSize` of its width wide, by decreasing confidence.
    /// `orientation`, when given, replaces the image's own.
    /// - Throws: ``FaceDetectionError/invalidParameter(name:value:rule:)`` for a `minFaceSize` outside 0…1,
    ///   ``FaceDetectionError/model(name:reason:)`` when a model cannot be loaded.
    public func process(_ image: Image, orientation: ImageOrientation? = nil) throws(FaceDetectionError) -> [Face] {
        let minFaceSize = options.minFaceSize
        guard minFaceSize.isFinite, (0...1).contains(minFaceSize) else {
            throw .invalidParameter(name: "minFaceSize", value: "\(minFaceSize)", rule: "must be a fraction of the image width in 0…1")
        }
        let faces = try FaceDetectionPipeline.detect(
            in: image, orientation: orientation, mode: options.performanceMode, minFaceSize: minFaceSize)
        return faces.filter { Double($0.detection.width) >= minFaceSize }.map(Face.init)
    }
}
