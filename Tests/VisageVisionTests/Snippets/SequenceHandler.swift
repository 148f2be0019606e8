#if canImport(Vision)
import Vision
#else
import VisageVision
#endif

/// One sequence handler kept across frames, as camera code keeps it; here the frames are files.
final class FrameProcessor {
    private let sequenceHandler = VNSequenceRequestHandler()
    private(set) var faceCounts: [Int] = []

    func process(frame url: URL) {
        let request = VNDetectFaceRectanglesRequest()
        do {
            try sequenceHandler.perform([request], onImageURL: url)
        } catch {
            faceCounts.append(-1)
            return
        }
        faceCounts.append(request.results?.count ?? 0)
    }

    func process(frame data: Data, orientation: CGImagePropertyOrientation) throws -> [CGRect] {
        let request = VNDetectFaceRectanglesRequest()
        try sequenceHandler.perform([request], onImageData: data, orientation: orientation)
        return request.results?.map(\.boundingBox) ?? []
    }

    func process(frame image: CIImage) throws -> Int {
        let request = VNDetectFaceRectanglesRequest()
        try sequenceHandler.perform([request], on: image)
        return request.results?.count ?? 0
    }
}

/// Errors as apps catch them.
func detectionErrorCode(for url: URL) -> Int? {
    let request = VNDetectFaceRectanglesRequest()
    do {
        try VNImageRequestHandler(url: url).perform([request])
        return nil
    } catch let error as NSError {
        return error.domain == VNErrorDomain ? error.code : nil
    }
}
