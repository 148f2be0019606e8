import Foundation
import VisageGeometry
import VisageImage

/// UIKit's `UIImage`, reduced to what non-UI face code uses: decoding a file or data, `cgImage`,
/// `size` and `imageOrientation`.
///
/// As on iOS, decoding keeps the stored pixels in ``cgImage`` and the EXIF orientation in
/// ``imageOrientation``; ``size`` is the upright size. Scale is always 1 (no `@2x` lookup).
/// ``visageImage`` is the same picture as Visage's ``VisageImage/Image`` (stored pixels and orientation).
public final class UIImage: Sendable {
    public let cgImage: CGImage?
    public let ciImage: CIImage?
    public let imageOrientation: Orientation
    public let scale: CGFloat

    /// Decodes the image file at `path` (any format Visage reads); nil when it cannot be read or decoded.
    public convenience init?(contentsOfFile path: String) {
        guard let image = try? Image(contentsOf: URL(fileURLWithPath: path), options: .init(applyOrientation: false))
        else { return nil }
        self.init(decoded: image)
    }

    /// Decodes encoded image data (any format Visage reads); nil when it cannot be decoded.
    public convenience init?(data: Data) {
        self.init(data: data, scale: 1)
    }

    public convenience init?(data: Data, scale: CGFloat) {
        guard let image = try? Image(data: data, options: .init(applyOrientation: false)) else { return nil }
        self.init(cgImage: CGImage(storedPixelsOf: image), scale: scale, orientation: Orientation(image.orientation))
    }

    public convenience init(cgImage: CGImage) {
        self.init(cgImage: cgImage, scale: 1, orientation: .up)
    }

    public init(cgImage: CGImage, scale: CGFloat, orientation: Orientation) {
        self.cgImage = cgImage
        ciImage = nil
        self.scale = scale
        imageOrientation = orientation
    }

    /// An image backed by a `CIImage`: its `cgImage` is nil, as on iOS.
    public init(ciImage: CIImage) {
        cgImage = nil
        self.ciImage = ciImage
        scale = 1
        imageOrientation = .up
    }

    /// Visage's image as a `UIImage`: its stored pixels become ``cgImage``, its orientation ``imageOrientation``.
    public convenience init(visageImage image: Image) {
        self.init(decoded: image)
    }

    private convenience init(decoded image: Image) {
        self.init(cgImage: CGImage(storedPixelsOf: image), scale: 1, orientation: Orientation(image.orientation))
    }

    /// The upright size in points (pixels over ``scale``): width and height exchanged for the
    /// orientations that turn the picture by 90°.
    public var size: CGSize {
        let pixels = visageImage.size
        return CGSize(width: pixels.width / scale, height: pixels.height / scale)
    }

    /// The picture as Visage's `Image`: the stored pixels with ``imageOrientation``, so Visage's
    /// requests report results in the upright picture, as Vision does for a `UIImage`.
    public var visageImage: Image {
        if let cgImage {
            return cgImage.visageImage.withOrientation(ImageOrientation(imageOrientation))
        }
        return ciImage!.visageImage
    }

    /// PNG data of the upright picture; nil when encoding fails.
    public func pngData() -> Data? {
        try? visageImage.applyingOrientation().pngData()
    }

    /// JPEG data of the upright picture at a quality of 0…1; nil when encoding fails.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        let quality = Int((min(max(compressionQuality, 0), 1) * 100).rounded())
        return try? visageImage.applyingOrientation().jpegData(quality: max(quality, 1))
    }
}
