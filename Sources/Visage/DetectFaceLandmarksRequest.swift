import Foundation
import VisageImage

/// Finds the landmarks of faces: Vision's `DetectFaceLandmarksRequest` (iOS 18 Swift API).
///
/// Each face gets ``FaceObservation/landmarks`` (Vision's regions traced on MediaPipe's 478-point mesh,
/// normalized to its bounding box), ``FaceObservation/analysis`` (the mesh, 52 blendshapes, the fitted
/// head pose, smile and eye-open probabilities), and roll, yaw and pitch from the fitted pose. Faces
/// come from `inputFaceObservations` when set, otherwise from ``DetectFaceRectanglesRequest``.
///
/// ```swift
/// var request = DetectFaceLandmarksRequest()
/// request.inputFaceObservations = try await DetectFaceRectanglesRequest().perform(on: image)
///     .filter { $0.confidence > 0.7 }
/// for face in try await request.perform(on: image) {
///     face.landmarks?.leftEye.pointsInImage(imageSize: image.size)   // pixels, origin lower left (as Vision)
/// }
/// ```
/// - Complexity: one mesh, blendshape and pose pass per face after detection; see
///   `Scripts/benchmark-landmarks.py` for measured times against MediaPipe's FaceLandmarker.
public struct DetectFaceLandmarksRequest: ImageProcessingRequest, Hashable {
    /// The algorithm revisions; revision 3 traces Vision's regions on MediaPipe's 478-point mesh.
    public enum Revision: Int, Sendable, Hashable, CaseIterable, Codable {
        case revision3 = 3
    }

    public static let supportedRevisions = Revision.allCases
    public let revision: Revision
    /// The faces to find landmarks on, in the same image; nil (the default) detects them first.
    ///
    /// Results come back in this order with the same `uuid`s and boxes. A box that does not overlap the
    /// picture, or in which the mesh model finds no face, comes back unchanged with `landmarks == nil`.
    /// A box whose size is not positive and finite is an error
    /// (``FaceDetectionError/invalidParameter(name:value:rule:)``); an empty list gives an empty result.
    public var inputFaceObservations: [FaceObservation]?

    public init(_ revision: Revision? = nil) {
        self.revision = revision ?? .revision3
    }

    /// The faces of `image` with their landmarks; `orientation`, when given, replaces the image's own.
    public func perform(on image: Image, orientation: ImageOrientation? = nil) async throws(FaceDetectionError) -> [FaceObservation] {
        try performSynchronously(on: image, orientation: orientation)
    }

    /// ``perform(on:orientation:)`` on the calling thread, for front ends with a synchronous API.
    package func performSynchronously(on image: Image, orientation: ImageOrientation? = nil) throws(FaceDetectionError) -> [FaceObservation] {
        try FaceLandmarkPipeline.observations(
            in: image, orientation: orientation, inputs: inputFaceObservations, captureQuality: false)
    }

    /// The faces in the image file at `url` (JPEG, PNG …) with their landmarks, honouring its EXIF
    /// orientation unless `orientation` is given.
    public func perform(on url: URL, orientation: ImageOrientation? = nil) async throws(FaceDetectionError) -> [FaceObservation] {
        try await perform(on: StoredImage.load(contentsOf: url), orientation: orientation)
    }

    /// The faces in an encoded image (JPEG, PNG …) with their landmarks, honouring its EXIF orientation
    /// unless `orientation` is given.
    public func perform(on data: Data, orientation: ImageOrientation? = nil) async throws(FaceDetectionError) -> [FaceObservation] {
        try await perform(on: StoredImage.load(data: data), orientation: orientation)
    }
}
