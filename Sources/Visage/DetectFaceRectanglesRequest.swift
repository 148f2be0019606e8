import Foundation
import VisageImage

/// Finds faces and reports their boxes, confidence, angles and six keypoints: Vision's
/// `DetectFaceRectanglesRequest` (iOS 18 Swift API).
///
/// It runs MediaPipe's short-range face detector, whose results it reproduces: fast, made for faces
/// that fill a fair part of the picture (selfies, portraits, video calls). For small faces in large
/// photos use ``FaceDetector`` with ``FaceDetectorOptions/PerformanceMode/accurate``.
///
/// ```swift
/// let faces = try await DetectFaceRectanglesRequest().perform(on: URL(fileURLWithPath: "group.jpg"))
/// for face in faces { print(face.boundingBox, face.confidence, face.roll) }
/// ```
public struct DetectFaceRectanglesRequest: ImageProcessingRequest, Hashable {
    /// The algorithm revisions; revision 3 reports roll, yaw and pitch, as Vision's does.
    public enum Revision: Int, Sendable, Hashable, CaseIterable, Codable {
        case revision3 = 3
    }

    public static let supportedRevisions = Revision.allCases
    public let revision: Revision

    public init(_ revision: Revision? = nil) {
        self.revision = revision ?? .revision3
    }

    /// The faces in `image`, ordered by decreasing confidence.
    public func perform(on image: Image, orientation: ImageOrientation? = nil) async throws(FaceDetectionError) -> [FaceObservation] {
        try performSynchronously(on: image, orientation: orientation)
    }

    /// ``perform(on:orientation:)`` on the calling thread, for front ends with a synchronous API.
    package func performSynchronously(on image: Image, orientation: ImageOrientation? = nil) throws(FaceDetectionError) -> [FaceObservation] {
        try FaceDetectionPipeline.detect(in: image, orientation: orientation, mode: .fast).map(FaceObservation.init)
    }

    /// The faces in the image file at `url` (JPEG, PNG …), honouring its EXIF orientation unless
    /// `orientation` is given.
    public func perform(on url: URL, orientation: ImageOrientation? = nil) async throws(FaceDetectionError) -> [FaceObservation] {
        try await perform(on: StoredImage.load(contentsOf: url), orientation: orientation)
    }

    /// The faces in an encoded image (JPEG, PNG …), honouring its EXIF orientation unless
    /// `orientation` is given.
    public func perform(on data: Data, orientation: ImageOrientation? = nil) async throws(FaceDetectionError) -> [FaceObservation] {
        try await perform(on: StoredImage.load(data: data), orientation: orientation)
    }
}
