internal import VisageMLKit

/// Firebase's callback: the faces, or nil and the error.
public typealias VisionFaceDetectionCallback = ([VisionFace]?, (any Error)?) -> Void

/// Firebase's entry point: `Vision.vision().faceDetector(options:)`.
public final class Vision: Sendable {
    private static let shared = Vision()

    /// The shared instance (Firebase's default app).
    public static func vision() -> Vision { shared }

    public func faceDetector(options: VisionFaceDetectorOptions) -> VisionFaceDetector {
        VisionFaceDetector(options: options)
    }

    public func faceDetector() -> VisionFaceDetector {
        VisionFaceDetector(options: VisionFaceDetectorOptions())
    }
}

/// Firebase's `VisionFaceDetector`: ML Kit's detector under Firebase's names, with the same tracking,
/// contour and callback behaviour (see VisageMLKit's `FaceDetector`).
public final class VisionFaceDetector: Sendable {
    private let detector: VisageMLKit.FaceDetector

    init(options: VisionFaceDetectorOptions) {
        let mlKit = VisageMLKit.FaceDetectorOptions()
        mlKit.performanceMode = FaceDetectorPerformanceMode(rawValue: Int(options.performanceMode.rawValue))
        mlKit.landmarkMode = FaceDetectorLandmarkMode(rawValue: Int(options.landmarkMode.rawValue))
        mlKit.classificationMode = FaceDetectorClassificationMode(rawValue: Int(options.classificationMode.rawValue))
        mlKit.contourMode = FaceDetectorContourMode(rawValue: Int(options.contourMode.rawValue))
        mlKit.minFaceSize = options.minFaceSize
        mlKit.isTrackingEnabled = options.isTrackingEnabled
        detector = .faceDetector(options: mlKit)
    }

    /// The faces in `image`, synchronously.
    public func results(in image: VisionImage) throws -> [VisionFace] {
        try detector.results(in: image.mlKitImage).map(VisionFace.init)
    }

    /// The faces in `image`, passed to `completion` on the detector's serial queue.
    public func process(_ image: VisionImage, completion: @escaping VisionFaceDetectionCallback) {
        detector.process(image.mlKitImage) { faces, error in
            completion(faces?.map(VisionFace.init), error)
        }
    }
}

/// The Firebase guide's mapping from device orientation and camera to the image orientation (front
/// camera mirrored); flat and unknown orientations give `.leftTop`, as in that guide.
public func imageOrientation(
    deviceOrientation: UIDeviceOrientation, cameraPosition: AVCaptureDevice.Position
) -> VisionDetectorImageOrientation {
    switch deviceOrientation {
    case .portrait: cameraPosition == .front ? .leftTop : .rightTop
    case .landscapeLeft: cameraPosition == .front ? .bottomLeft : .topLeft
    case .portraitUpsideDown: cameraPosition == .front ? .rightBottom : .leftBottom
    case .landscapeRight: cameraPosition == .front ? .topRight : .bottomRight
    case .faceDown, .faceUp, .unknown: .leftTop
    }
}
