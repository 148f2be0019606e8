import Foundation
import VisageGeometry
import VisageImage

/// Core Image's `CIImage`, reduced to what face code passes to Vision: made from a file, data, a
/// `CGImage` or a `UIImage`, `extent`, and `oriented(_:)`.
///
/// As on iOS, a `CIImage` made from a file, data or a `UIImage` holds the stored pixels: the EXIF or
/// UIKit orientation is not applied (pass it as the handler's `orientation:` or call ``oriented(_:)``).
public final class CIImage: Sendable {
    /// The picture as Visage's `Image`: stored pixels with the orientation ``oriented(_:)`` gave them.
    public let visageImage: Image

    /// Decodes the image file at `url`; nil when it cannot be read or decoded.
    public convenience init?(contentsOf url: URL) {
        guard let image = try? Image(contentsOf: url, options: .init(applyOrientation: false)) else { return nil }
        self.init(visageImage: image.withOrientation(.up))
    }

    /// Decodes encoded image data; nil when it cannot be decoded.
    public convenience init?(data: Data) {
        guard let image = try? Image(data: data, options: .init(applyOrientation: false)) else { return nil }
        self.init(visageImage: image.withOrientation(.up))
    }

    public convenience init(cgImage: CGImage) {
        self.init(visageImage: cgImage.visageImage)
    }

    /// The image's stored pixels, without its `imageOrientation`, as Core Image does by default.
    public convenience init?(image: UIImage) {
        if let cgImage = image.cgImage {
            self.init(cgImage: cgImage)
        } else if let ciImage = image.ciImage {
            self.init(visageImage: ciImage.visageImage)
        } else {
            return nil
        }
    }

    /// Visage's image, whose orientation (if not `.up`) is applied when it is analysed.
    public init(visageImage image: Image) {
        visageImage = image
    }

    /// The upright picture's rectangle in pixels, at the origin.
    public var extent: CGRect { CGRect(origin: .zero, size: visageImage.size) }

    /// The picture turned upright from the stored pixels by `orientation`.
    public func oriented(_ orientation: CGImagePropertyOrientation) -> CIImage {
        CIImage(visageImage: visageImage.applyingOrientation().withOrientation(ImageOrientation(orientation)))
    }

    /// ``oriented(_:)`` with an EXIF value; values outside 1…8 leave the image as it is.
    public func oriented(forExifOrientation orientation: Int32) -> CIImage {
        guard let value = UInt32(exactly: orientation), let known = CGImagePropertyOrientation(rawValue: value) else { return self }
        return oriented(known)
    }
}
