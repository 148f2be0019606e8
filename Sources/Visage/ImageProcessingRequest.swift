import VisageImage

/// A request that analyses one image, as Vision's `ImageProcessingRequest`: ``ImageRequestHandler``
/// performs any number of them on an image it decodes once.
public protocol ImageProcessingRequest: Sendable {
    associatedtype Result: Sendable
    /// Analyses `image`; `orientation`, when given, replaces the image's own (how its stored pixels
    /// relate to the upright picture). Results are in the upright picture.
    func perform(on image: Image, orientation: ImageOrientation?) async throws -> Result
}
