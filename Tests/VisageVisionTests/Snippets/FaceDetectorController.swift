#if canImport(Vision)
import Vision
#else
import VisageVision
#endif

/// The completion-handler style: a lazily made request whose handler casts the untyped results.
final class FaceDetectorController {
    private(set) var faces: [VNFaceObservation] = []
    private(set) var lastError: Error?
    private(set) var handlerCalls = 0

    lazy var faceDetectionRequest: VNDetectFaceRectanglesRequest = {
        VNDetectFaceRectanglesRequest(completionHandler: { [weak self] request, error in
            self?.handleFaces(request: request, error: error)
        })
    }()

    private func handleFaces(request: VNRequest, error: Error?) {
        handlerCalls += 1
        if let error {
            lastError = error
            return
        }
        guard let observations = request.results as? [VNFaceObservation] else { return }
        faces = observations
    }

    func detectFaces(in data: Data) {
        let handler = VNImageRequestHandler(data: data, options: [:])
        do {
            try handler.perform([faceDetectionRequest])
        } catch {
            print("Failed to perform face detection: \(error.localizedDescription)")
        }
    }
}
