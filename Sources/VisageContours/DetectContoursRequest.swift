import VisageGeometry
import VisageImage

/// Finds the contours of an image: the outlines of its shapes and of the holes in them, nested,
/// as Vision's `DetectContoursRequest`.
///
/// The pipeline: gray (Rec. 601 luma) and downscale so the longer side is at most
/// `maximumImageDimension` (block average, in one pass; never upscaled) → upright per the orientation →
/// contrast around the pivot and threshold at mid-gray (see ``contrastAdjustment``) → border
/// following with the full hierarchy (Suzuki–Abe, as OpenCV's `findContours` with `RETR_TREE`)
/// → ``ContoursObservation``. An image that comes out all foreground or all background has no
/// edges and gives zero contours.
///
/// ```swift
/// var request = DetectContoursRequest()
/// request.contrastPivot = nil                  // choose from the histogram
/// let observation = try await request.perform(on: image)
/// let outline = try observation.topLevelContours.first?.polygonApproximation(epsilon: 0.01)
/// ```
public struct DetectContoursRequest: Sendable, Hashable {
    /// How strongly to stretch gray values away from the pivot, 0…3 (default 2).
    ///
    /// A value v in 0…1 becomes `clamp((v − pivot) × adjustment + pivot)`, then pixels darker than
    /// mid-gray are foreground (lighter with `detectsDarkOnLight` false). The net effect is a
    /// threshold at `pivot + (0.5 − pivot) / adjustment`; at 0 the image has no edges at all.
    public var contrastAdjustment: Float = 2
    /// The gray value (0…1) the contrast stretches away from, default 0.5.
    ///
    /// nil chooses it from the image so that the threshold falls on Otsu's level of the gray
    /// histogram, the level that splits the pixels into two classes with the largest
    /// between-class variance (as far as adjustment a can move it: to levels between 0.5/a and 1 − 0.5/a).
    public var contrastPivot: Float? = 0.5
    /// True (the default) finds dark shapes on a light background; false finds light shapes on dark.
    public var detectsDarkOnLight = true
    /// The longer side of the image the contours are traced on, at least 64 (default 512).
    /// Larger images are downscaled to it first; smaller ones are never upscaled.
    public var maximumImageDimension = 512

    public init() {}

    /// Checks every parameter against its range.
    /// - Throws: ``ContoursError/invalidParameter(name:value:rule:)`` naming the first bad one.
    public func validate() throws(ContoursError) {
        guard contrastAdjustment.isFinite, (0 ... 3).contains(contrastAdjustment) else {
            throw .invalidParameter(
                name: "contrastAdjustment", value: "\(contrastAdjustment)", rule: "must be within 0...3")
        }
        if let contrastPivot, !(contrastPivot.isFinite && (0 ... 1).contains(contrastPivot)) {
            throw .invalidParameter(
                name: "contrastPivot", value: "\(contrastPivot)", rule: "must be within 0...1, or nil for automatic")
        }
        guard maximumImageDimension >= 64 else {
            throw .invalidParameter(
                name: "maximumImageDimension", value: "\(maximumImageDimension)", rule: "must be at least 64")
        }
    }

    /// The contours of `image`, in its upright frame.
    ///
    /// - Parameter orientation: how the stored pixels relate to the upright picture; nil uses the
    ///   image's own `orientation`.
    /// - Throws: ``ContoursError/invalidParameter(name:value:rule:)`` for an out-of-range parameter.
    public func perform(on image: Image, orientation: ImageOrientation? = nil) async throws(ContoursError)
        -> ContoursObservation
    {
        try performSynchronously(on: image, orientation: orientation)
    }

    /// ``perform(on:orientation:)`` on the calling thread.
    public func performSynchronously(on image: Image, orientation: ImageOrientation? = nil) throws(ContoursError)
        -> ContoursObservation
    {
        try validate()
        let gray = try Self.workingImage(image, orientation: orientation, maximumDimension: maximumImageDimension)
        return Self.observation(for: binarization(for: gray).mask(of: gray))
    }

    /// The image traced: gray, downscaled to `maximumDimension`, upright.
    package static func workingImage(
        _ image: Image, orientation: ImageOrientation?, maximumDimension: Int
    ) throws(ContoursError) -> Image {
        do {
            var gray: Image
            if max(image.width, image.height) > maximumDimension {
                let scale = Double(maximumDimension) / Double(max(image.width, image.height))
                gray = try GrayDownscale.gray(
                    image,
                    width: max(1, min(maximumDimension, Int((Double(image.width) * scale).rounded()))),
                    height: max(1, min(maximumDimension, Int((Double(image.height) * scale).rounded()))))
            } else {
                gray = image.converted(to: .gray8)
            }
            if let orientation { gray = gray.withOrientation(orientation) }
            return gray.applyingOrientation()
        } catch {
            throw .image(error)
        }
    }

    /// The contrast and threshold this request applies to `gray`, the pivot resolved.
    package func binarization(for gray: Image) -> Binarization {
        let pivot = contrastPivot.map(Double.init) ?? gray.withUnsafeBytes {
            Binarization.automaticPivot(
                gray: $0, width: gray.width, height: gray.height, bytesPerRow: gray.bytesPerRow,
                adjustment: Double(contrastAdjustment))
        }
        return Binarization(pivot: pivot, adjustment: Double(contrastAdjustment), detectsDarkOnLight: detectsDarkOnLight)
    }

    /// The observation for a mask; a uniform mask (no edges) gives no contours.
    package static func observation(for mask: BinaryMask) -> ContoursObservation {
        let borders = mask.isUniform
            ? TracedBorders(width: mask.width, height: mask.height, coordinates: [], pointOffsets: [0], parents: [], isHole: [])
            : BorderFollowing.traceBorders(in: mask)
        return ContoursObservation(tree: ContourTree(borders: borders))
    }
}
