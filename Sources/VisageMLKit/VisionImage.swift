internal import Visage

/// ML Kit's `MLKitCompatibleImage`: what a detector accepts. ``VisionImage`` is the one conformer.
public protocol MLKitCompatibleImage: AnyObject {}

/// ML Kit's `VisionImage`: a `UIImage`'s pixels with the ``orientation`` to read them in.
///
/// As in ML Kit, the orientation is this object's (default `.up`), not the `UIImage`'s own: code that
/// follows Google's guide sets `visionImage.orientation = image.imageOrientation`. Results are in
/// pixels of the picture turned upright by it. (`VisionImage(buffer: CMSampleBuffer)` does not port: Linux
/// has no `CMSampleBuffer`.)
public final class VisionImage: MLKitCompatibleImage {
    public let image: UIImage
    public var orientation: UIImage.Orientation = .up

    public init(image: UIImage) {
        self.image = image
    }

    /// The stored pixels with ``orientation`` applied the way Visage applies an EXIF orientation.
    var visageImage: Image {
        image.visageImage.withOrientation(ImageOrientation(orientation))
    }
}
