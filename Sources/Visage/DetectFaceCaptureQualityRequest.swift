import Foundation
import VisageImage

/// Rates how suitable each face's capture is: Vision's `DetectFaceCaptureQualityRequest` (iOS 18 Swift API).
///
/// Sets ``FaceObservation/captureQuality``, a score in 0…1 for ranking captures of the same person
/// (sharpness, frontal pose, open eyes, exposure and size; see ``CaptureQuality`` for the formula). It
/// runs the face mesh to measure them, so the observations also carry landmarks and the fitted pose, as
/// from ``DetectFaceLandmarksRequest``.
///
/// ```swift
/// let faces = try await DetectFaceCaptureQualityRequest().perform(on: URL(fileURLWithPath: "burst-3.jpg"))
/// let best = faces.max { ($0.captureQuality ?? 0) < ($1.captureQuality ?? 0) }
/// ```
public struct DetectFaceCaptureQualityRequest: ImageProcessingRequest, Hashable {
    public enum Revision: Int, Sendable, Hashable, CaseIterable, Codable {
        case revision3 = 3
    }

    public static let supportedRevisions = Revision.allCases
    public let revision: Revision
    /// The faces to rate, in the same image; nil (the default) detects them first. Handled as
    /// ``DetectFaceLandmarksRequest/inputFaceObservations``: a face without a mesh keeps `captureQuality == nil`.
    public var inputFaceObservations: [FaceObservation]?

    public init(_ revision: Revision? = nil) {
        self.revision = revision ?? .revision3
    }

    /// The faces of `image` with their capture quality; `orientation`, when given, replaces the image's own.
    public func perform(on image: Image, orientation: ImageOrientation? = nil) async throws(FaceDetectionError) -> [FaceObservation] {
        try performSynchronously(on: image, orientation: orientation)
    }

    /// ``perform(on:orientation:)`` on the calling thread, for front ends with a synchronous API.
    package func performSynchronously(on image: Image, orientation: ImageOrientation? = nil) throws(FaceDetectionError) -> [FaceObservation] {
        try FaceLandmarkPipeline.observations(
            in: image, orientation: orientation, inputs: inputFaceObservations, captureQuality: true)
    }

    /// The faces in the image file at `url` (JPEG, PNG …) with their capture quality.
    public func perform(on url: URL, orientation: ImageOrientation? = nil) async throws(FaceDetectionError) -> [FaceObservation] {
        try await perform(on: StoredImage.load(contentsOf: url), orientation: orientation)
    }

    /// The faces in an encoded image (JPEG, PNG …) with their capture quality.
    public func perform(on data: Data, orientation: ImageOrientation? = nil) async throws(FaceDetectionError) -> [FaceObservation] {
        try await perform(on: StoredImage.load(data: data), orientation: orientation)
    }
}
