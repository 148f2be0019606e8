import Foundation
import Visage

public let VNDetectFaceLandmarksRequestRevision1 = 1
public let VNDetectFaceLandmarksRequestRevision2 = 2
public let VNDetectFaceLandmarksRequestRevision3 = 3

/// Which landmark point set to report (iOS 13).
public enum VNRequestFaceLandmarksConstellation: UInt, Sendable, Hashable {
    case constellationNotDefined = 0
    case constellation65Points = 1
    case constellation76Points = 2
}

/// Finds face landmarks: Vision's `VNDetectFaceLandmarksRequest` over Visage's `DetectFaceLandmarksRequest`.
///
/// Without `inputFaceObservations` it detects the faces first. Given faces without landmarks come back
/// as new observations with them (same `uuid` and box); given faces that already have landmarks come
/// back as they are. Every revision runs the same mesh; `constellation` is checked against the revision
/// as Vision does, but the regions' points are always Visage's (see ``VNFaceLandmarks2D``).
public final class VNDetectFaceLandmarksRequest: VNImageBasedRequest, VNTypedRequestResults, VNFaceObservationAccepting {
    public typealias ResultObservation = VNFaceObservation

    public var inputFaceObservations: [VNFaceObservation]?
    public var constellation: VNRequestFaceLandmarksConstellation = .constellationNotDefined

    public override class var supportedRevisions: IndexSet { IndexSet(1 ... 3) }
    public override class var defaultRevision: Int { VNDetectFaceLandmarksRequestRevision3 }
    public override class var currentRevision: Int { VNDetectFaceLandmarksRequestRevision3 }

    /// Whether `requestRevision` offers `constellation`: every revision the 65-point set, only revision 3 the 76-point one.
    public class func revision(_ requestRevision: Int, supportsConstellation constellation: VNRequestFaceLandmarksConstellation) -> Bool {
        guard supportedRevisions.contains(requestRevision) else { return false }
        switch constellation {
        case .constellationNotDefined, .constellation65Points: return true
        case .constellation76Points: return requestRevision >= VNDetectFaceLandmarksRequestRevision3
        }
    }

    override func run(on input: VisionInput) throws(VNError) -> [VNObservation] {
        guard Self.revision(revision, supportsConstellation: constellation) else {
            throw VNError(.invalidOption, "constellation \(constellation) needs revision 3, not \(revision)")
        }
        return try FaceMeshRequests.run(
            on: input, regionOfInterest: regionOfInterest, inputs: inputFaceObservations, revision: revision,
            keepsGivenLandmarks: true
        ) { image, orientation, faces throws(FaceDetectionError) in
            var request = Visage.DetectFaceLandmarksRequest()
            request.inputFaceObservations = faces
            return try request.performSynchronously(on: image, orientation: orientation)
        }
    }
}

/// What the landmark and capture-quality requests share: which faces to analyse and how results return.
enum FaceMeshRequests {
    static func run(
        on input: VisionInput, regionOfInterest: CGRect, inputs: [VNFaceObservation]?, revision: Int,
        keepsGivenLandmarks: Bool,
        analyse: (Image, ImageOrientation?, [Visage.FaceObservation]?) throws(FaceDetectionError) -> [Visage.FaceObservation]
    ) throws(VNError) -> [VNObservation] {
        let (image, orientation) = try input.image(regionOfInterest: regionOfInterest)
        do {
            guard let inputs else {
                return try analyse(image, orientation, nil).map { VNFaceObservation($0, requestRevision: revision) }
            }
            let pending = inputs.enumerated().filter { !keepsGivenLandmarks || $0.element.landmarks == nil }
            var results: [VNObservation] = inputs
            if !pending.isEmpty {
                let analysed = try analyse(image, orientation, pending.map(\.element.visageObservation))
                for ((index, _), face) in zip(pending, analysed) {
                    results[index] = VNFaceObservation(face, requestRevision: revision)
                }
            }
            return results
        } catch {
            throw VNError(visage: error)
        }
    }
}
