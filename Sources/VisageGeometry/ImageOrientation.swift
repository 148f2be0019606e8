/// How the stored pixels relate to the upright picture, as EXIF tag 0x0112 and
/// `CGImagePropertyOrientation` define it.
///
/// The name says where the picture's top ended up in the stored pixels: `.right` (EXIF 6)
/// means the camera was turned so the stored pixels must be rotated 90° clockwise to be upright.
/// Results of Visage are always in the upright frame; these mappings carry a point between
/// that frame and the stored ("raw") pixel grid.
public enum ImageOrientation: UInt8, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// The orientation for an EXIF value, or nil when the value is outside 1...8.
    public init?(exifValue: Int) {
        guard let value = UInt8(exactly: exifValue), let orientation = Self(rawValue: value) else { return nil }
        self = orientation
    }

    public var exifValue: Int { Int(rawValue) }

    /// True for the four orientations that exchange width and height (EXIF 5–8).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The upright size of a stored buffer of `width` × `height` pixels.
    public func uprightSize(rawWidth width: Int, rawHeight height: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (height, width) : (width, height)
    }

    /// Maps a point of the upright picture to the stored pixels. Both in unit coordinates with
    /// the origin at the top left: (0, 0) is the top-left corner, (1, 1) the bottom-right.
    public func rawUnitPoint(fromUpright u: Double, _ v: Double) -> (x: Double, y: Double) {
        switch self {
        case .up: (u, v)
        case .upMirrored: (1 - u, v)
        case .down: (1 - u, 1 - v)
        case .downMirrored: (u, 1 - v)
        case .leftMirrored: (v, u)
        case .right: (v, 1 - u)
        case .rightMirrored: (1 - v, 1 - u)
        case .left: (1 - v, u)
        }
    }

    /// The inverse of `rawUnitPoint(fromUpright:_:)`.
    public func uprightUnitPoint(fromRaw x: Double, _ y: Double) -> (u: Double, v: Double) {
        switch self {
        case .up: (x, y)
        case .upMirrored: (1 - x, y)
        case .down: (1 - x, 1 - y)
        case .downMirrored: (x, 1 - y)
        case .leftMirrored: (y, x)
        case .right: (1 - y, x)
        case .rightMirrored: (1 - y, 1 - x)
        case .left: (y, 1 - x)
        }
    }

    public var description: String {
        switch self {
        case .up: "up"
        case .upMirrored: "upMirrored"
        case .down: "down"
        case .downMirrored: "downMirrored"
        case .leftMirrored: "leftMirrored"
        case .right: "right"
        case .rightMirrored: "rightMirrored"
        case .left: "left"
        }
    }
}
