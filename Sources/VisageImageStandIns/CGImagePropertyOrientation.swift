import VisageGeometry

/// ImageIO's `CGImagePropertyOrientation`: how stored pixels relate to the upright picture, with the
/// EXIF values 1–8 as raw values. Vision's handlers take it as `orientation:`.
public enum CGImagePropertyOrientation: UInt32, Sendable, Hashable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// The orientation of a `UIImage`: the conversion Apple's sample code writes as an extension. An app's
    /// own copy of this initializer takes precedence over this one, so code that declares it still compiles.
    public init(_ orientation: UIImage.Orientation) {
        switch orientation {
        case .up: self = .up
        case .upMirrored: self = .upMirrored
        case .down: self = .down
        case .downMirrored: self = .downMirrored
        case .left: self = .left
        case .leftMirrored: self = .leftMirrored
        case .right: self = .right
        case .rightMirrored: self = .rightMirrored
        }
    }
}

extension ImageOrientation {
    /// Visage's orientation with the same EXIF value.
    public init(_ orientation: CGImagePropertyOrientation) {
        self = ImageOrientation(rawValue: UInt8(orientation.rawValue))!
    }
}

extension CGImagePropertyOrientation {
    /// The orientation with the same EXIF value as Visage's.
    public init(_ orientation: ImageOrientation) {
        self = CGImagePropertyOrientation(rawValue: UInt32(orientation.rawValue))!
    }
}
