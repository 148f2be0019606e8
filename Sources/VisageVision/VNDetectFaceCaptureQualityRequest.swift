import Foundation
import Visage

public let VNDetectFaceCaptureQualityRequestRevision1 = 1
public let VNDetectFaceCaptureQualityRequestRevision2 = 2
public let VNDetectFaceCaptureQualityRequestRevision3 = 3

/// Rates each face's capture, 0…1 in `faceCaptureQuality`: Vision's `VNDetectFaceCaptureQualityRequest`
/// over Visage's `DetectFaceCaptureQualityRequest` (every revision the same measure). Without
/// `inputFaceObservations` it detects the faces first; the results also carry landmarks.
public final class VNDetectFaceCaptureQualityRequest: VNImageBasedRequest, VNTypedRequestResults, VNFaceObservationAccepting {
    public typealias ResultObservation = VNFaceObservation

    public var inputFaceObservations: [VNFaceObservation]?

    public override class var supportedRevisions: IndexSet { IndexSet(1 ... 3) }
    public override class var defaultRevision: Int { VNDetectFaceCaptureQualityRequestRevision3 }
    public override class var currentRevision: Int { VNDetectFaceCaptureQualityRequestRevision3 }

    override func run(on input: VisionInput) throws(VNError) -> [VNObservation] {
        try FaceMeshRequests.run(
            on: input, regionOfInterest: regionOfInterest, inputs: inputFaceObservations, revision: revision,
            keepsGivenLandmarks: false
        ) { image, orientation, faces throws(FaceDetectionError) in
            var request = Visage.DetectFaceCaptureQualityRequest()
            request.inputFaceObservations = faces
            return try request.performSynchronously(on: image, orientation: orientation)
        }
    }
}
