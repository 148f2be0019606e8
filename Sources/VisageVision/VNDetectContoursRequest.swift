import Foundation
import Visage

/// The contour request's one revision (Apple's name is singular).
public let VNDetectContourRequestRevision1 = 1

/// Finds contours: Vision's `VNDetectContoursRequest` over Visage's `DetectContoursRequest`, with the
/// same parameters, defaults and ranges. Results: one ``VNContoursObservation``.
public final class VNDetectContoursRequest: VNImageBasedRequest, VNTypedRequestResults {
    public typealias ResultObservation = VNContoursObservation

    /// 0…3, default 2: how far gray values are stretched from `contrastPivot`.
    public var contrastAdjustment: Float = 2
    /// 0…1, default 0.5; nil chooses it from the image's histogram (Otsu).
    public var contrastPivot: NSNumber? = 0.5
    /// True (default): dark shapes on a light background.
    public var detectsDarkOnLight = true
    /// The longer side the image is downscaled to first, at least 64; default 512.
    public var maximumImageDimension = 512

    @available(*, deprecated, renamed: "detectsDarkOnLight")
    public var detectDarkOnLight: Bool {
        get { detectsDarkOnLight }
        set { detectsDarkOnLight = newValue }
    }

    public override class var supportedRevisions: IndexSet { IndexSet(integer: 1) }

    /// Visage's request with these parameters.
    public var visageRequest: Visage.DetectContoursRequest {
        var request = Visage.DetectContoursRequest()
        request.contrastAdjustment = contrastAdjustment
        request.contrastPivot = contrastPivot?.floatValue
        request.detectsDarkOnLight = detectsDarkOnLight
        request.maximumImageDimension = maximumImageDimension
        return request
    }

    override func run(on input: VisionInput) throws(VNError) -> [VNObservation] {
        let (image, orientation) = try input.image(regionOfInterest: regionOfInterest)
        do {
            let observation = try visageRequest.performSynchronously(on: image, orientation: orientation)
            return [VNContoursObservation(observation, requestRevision: revision)]
        } catch {
            throw VNError(visage: error)
        }
    }
}
