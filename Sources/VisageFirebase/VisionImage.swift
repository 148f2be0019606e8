internal import VisageMLKit

/// Firebase's `VisionDetectorImageOrientation`: EXIF's values.
public enum VisionDetectorImageOrientation: UInt, Sendable, Hashable, CaseIterable {
    case topLeft = 1
    case topRight = 2
    case bottomRight = 3
    case bottomLeft = 4
    case leftTop = 5
    case rightTop = 6
    case rightBottom = 7
    case leftBottom = 8
}

/// Firebase's `VisionImageMetadata`: how to read an image's pixels.
public class VisionImageMetadata {
    public var orientation: VisionDetectorImageOrientation = .topLeft

    public init() {}
}

/// Firebase's `VisionImage`: a `UIImage`'s pixels, read as ``metadata`` says (upright, `.topLeft`, when
/// nil). `VisionImage(buffer: CMSampleBuffer)` does not port.
public final class VisionImage {
    public let image: UIImage
    public var metadata: VisionImageMetadata?

    public init(image: UIImage) {
        self.image = image
    }

    /// The same pixels as ML Kit's `VisionImage`, the EXIF orientation as UIKit's.
    var mlKitImage: VisageMLKit.VisionImage {
        let image = VisageMLKit.VisionImage(image: image)
        image.orientation = UIImage.Orientation(CGImagePropertyOrientation(rawValue: UInt32((metadata?.orientation ?? .topLeft).rawValue))!)
        return image
    }
}
