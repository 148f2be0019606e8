#if canImport(Vision)
import Vision
#else
import VisageVision
#endif

/// The face-tracking tutorial: detect once, then follow the face with `VNTrackObjectRequest`,
/// feeding each result back as the next input until the confidence drops.
final class FaceFollower {
    private let sequenceHandler = VNSequenceRequestHandler()
    private var lastObservation: VNDetectedObjectObservation?

    func start(with frame: CGImage) throws -> CGRect? {
        let request = VNDetectFaceRectanglesRequest()
        try VNImageRequestHandler(cgImage: frame, options: [:]).perform([request])
        guard let face = request.results?.first else { return nil }
        lastObservation = VNDetectedObjectObservation(boundingBox: face.boundingBox)
        return face.boundingBox
    }

    func track(_ frame: CGImage) throws -> CGRect? {
        guard let last = lastObservation else { return nil }
        let request = VNTrackObjectRequest(detectedObjectObservation: last)
        request.trackingLevel = .accurate
        try sequenceHandler.perform([request], on: frame)
        guard let observation = request.results?.first, observation.confidence > 0.3 else {
            lastObservation = nil
            return nil
        }
        lastObservation = observation
        return observation.boundingBox
    }
}
