import Foundation
import Visage

public let VNDetectFaceRectanglesRequestRevision1 = 1
public let VNDetectFaceRectanglesRequestRevision2 = 2
public let VNDetectFaceRectanglesRequestRevision3 = 3

/// Finds faces: Vision's `VNDetectFaceRectanglesRequest` over Visage's `DetectFaceRectanglesRequest`
/// (MediaPipe's short-range detector). Every revision runs the same detector; they differ, as Vision's,
/// in the angles they report: revision 1 none, 2 roll and yaw, 3 (the default) roll, yaw and pitch.
public final class VNDetectFaceRectanglesRequest: VNImageBasedRequest, VNTypedRequestResults {
    public typealias ResultObservation = VNFaceObservation

    public override class var supportedRevisions: IndexSet { IndexSet(1 ... 3) }
    public override class var defaultRevision: Int { VNDetectFaceRectanglesRequestRevision3 }
    public override class var currentRevision: Int { VNDetectFaceRectanglesRequestRevision3 }

    override func run(on input: VisionInput) throws(VNError) -> [VNObservation] {
        let (image, orientation) = try input.image(regionOfInterest: regionOfInterest)
        let faces: [Visage.FaceObservation]
        do {
            faces = try Visage.DetectFaceRectanglesRequest().performSynchronously(on: image, orientation: orientation)
        } catch {
            throw VNError(visage: error)
        }
        let revision = revision
        return faces.map { VNFaceObservation($0, requestRevision: revision, angles: revision == 1 ? 0 : revision) }
    }
}
