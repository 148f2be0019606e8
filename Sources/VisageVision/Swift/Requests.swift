import Foundation

/// Finds faces: Vision's iOS 18 `DetectFaceRectanglesRequest` (see `VNDetectFaceRectanglesRequest`).
public struct DetectFaceRectanglesRequest: ImageProcessingRequest, Hashable {
    public enum Revision: Sendable, Hashable, CaseIterable {
        case revision3
    }

    public static let supportedRevisions: [Revision] = Revision.allCases
    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage

    public init(_ revision: Revision? = nil) {
        self.revision = revision ?? .revision3
    }

    public func perform(with handler: ImageRequestHandler) throws -> [FaceObservation] {
        let request = VNDetectFaceRectanglesRequest()
        try handler.run(request, regionOfInterest: regionOfInterest)
        return (request.results ?? []).map(FaceObservation.init)
    }
}

/// Finds face landmarks: Vision's iOS 18 `DetectFaceLandmarksRequest` (see `VNDetectFaceLandmarksRequest`).
/// With `inputFaceObservations` nil it detects the faces first.
public struct DetectFaceLandmarksRequest: ImageProcessingRequest, Hashable {
    public enum Revision: Sendable, Hashable, CaseIterable {
        case revision3
    }

    public static let supportedRevisions: [Revision] = Revision.allCases
    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage
    public var inputFaceObservations: [FaceObservation]?

    public init(_ revision: Revision? = nil) {
        self.revision = revision ?? .revision3
    }

    public func perform(with handler: ImageRequestHandler) throws -> [FaceObservation] {
        let request = VNDetectFaceLandmarksRequest()
        request.inputFaceObservations = inputFaceObservations?.map { VNFaceObservation($0.visageObservation, requestRevision: 3) }
        try handler.run(request, regionOfInterest: regionOfInterest)
        return (request.results ?? []).map(FaceObservation.init)
    }
}

/// Rates each face's capture: Vision's iOS 18 `DetectFaceCaptureQualityRequest`; sets `captureQuality`.
public struct DetectFaceCaptureQualityRequest: ImageProcessingRequest, Hashable {
    public enum Revision: Sendable, Hashable, CaseIterable {
        case revision3
    }

    public static let supportedRevisions: [Revision] = Revision.allCases
    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage
    public var inputFaceObservations: [FaceObservation]?

    public init(_ revision: Revision? = nil) {
        self.revision = revision ?? .revision3
    }

    public func perform(with handler: ImageRequestHandler) throws -> [FaceObservation] {
        let request = VNDetectFaceCaptureQualityRequest()
        request.inputFaceObservations = inputFaceObservations?.map { VNFaceObservation($0.visageObservation, requestRevision: 3) }
        try handler.run(request, regionOfInterest: regionOfInterest)
        return (request.results ?? []).map(FaceObservation.init)
    }
}

/// Finds contours: Vision's iOS 18 `DetectContoursRequest`, with Vision's parameters and defaults.
public struct DetectContoursRequest: ImageProcessingRequest, Hashable {
    public enum Revision: Sendable, Hashable, CaseIterable {
        case revision1
    }

    public static let supportedRevisions: [Revision] = Revision.allCases
    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage
    /// 0…3, default 2.
    public var contrastAdjustment: Float = 2
    /// 0…1, default 0.5; nil chooses it from the image.
    public var contrastPivot: Float? = 0.5
    public var detectsDarkOnLight = true
    /// At least 64, default 512.
    public var maximumImageDimension = 512

    public init(_ revision: Revision? = nil) {
        self.revision = revision ?? .revision1
    }

    public func perform(with handler: ImageRequestHandler) throws -> ContoursObservation {
        let request = VNDetectContoursRequest()
        request.contrastAdjustment = contrastAdjustment
        request.contrastPivot = contrastPivot.map { NSNumber(value: $0) }
        request.detectsDarkOnLight = detectsDarkOnLight
        request.maximumImageDimension = maximumImageDimension
        try handler.run(request, regionOfInterest: regionOfInterest)
        return ContoursObservation(request.results![0].visageObservation)
    }
}
