import Foundation
import VisageImage

/// Core Graphics' `CGImage`, reduced to what face code reads: a bitmap of stored pixels with no
/// orientation of its own (a `UIImage` or a handler's `orientation:` says how it is turned).
///
/// A thin wrapper of Visage's ``VisageImage/Image``; ``visageImage`` gives it back for Visage's own API.
public final class CGImage: Sendable, Equatable {
    /// The pixels, with `orientation == .up`.
    public let visageImage: Image

    /// The image's upright pixels (any orientation the image carries is applied first).
    public init(visageImage image: Image) {
        visageImage = image.applyingOrientation()
    }

    /// The stored pixels as they are, the orientation dropped (what ImageIO's `CGImage` of a file holds).
    package init(storedPixelsOf image: Image) {
        visageImage = image.withOrientation(.up)
    }

    public var width: Int { visageImage.width }
    public var height: Int { visageImage.height }
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 8 * visageImage.pixelFormat.bytesPerPixel }
    public var bytesPerRow: Int { visageImage.bytesPerRow }

    /// The part of the image inside `rect` (pixels, origin at the top left), rounded outwards to whole
    /// pixels and clipped to the image; nil when nothing of it lies inside.
    public func cropping(to rect: CGRect) -> CGImage? {
        let clipped = rect.standardized.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !clipped.isNull, clipped.width > 0, clipped.height > 0,
              clipped.minX.isFinite, clipped.minY.isFinite, clipped.maxX.isFinite, clipped.maxY.isFinite
        else { return nil }
        let x0 = Int(clipped.minX.rounded(.down)), y0 = Int(clipped.minY.rounded(.down))
        let x1 = Int(clipped.maxX.rounded(.up)), y1 = Int(clipped.maxY.rounded(.up))
        let step = visageImage.pixelFormat.bytesPerPixel
        let rowBytes = (x1 - x0) * step
        var pixels = [UInt8]()
        pixels.reserveCapacity(rowBytes * (y1 - y0))
        visageImage.withUnsafeBytes { bytes in
            for row in y0 ..< y1 {
                let start = row * visageImage.bytesPerRow + x0 * step
                pixels.append(contentsOf: bytes[start ..< start + rowBytes])
            }
        }
        guard let cropped = try? Image(
            width: x1 - x0, height: y1 - y0, pixelFormat: visageImage.pixelFormat, pixels: pixels)
        else { return nil }
        return CGImage(visageImage: cropped)
    }

    /// Same object, as Core Foundation compares `CGImage`s.
    public static func == (lhs: CGImage, rhs: CGImage) -> Bool { lhs === rhs }
}
