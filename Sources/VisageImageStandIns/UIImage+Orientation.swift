import VisageGeometry

extension UIImage {
    /// UIKit's `UIImage.Orientation`, with UIKit's raw values (which are not EXIF's).
    public enum Orientation: Int, Sendable, Hashable, CaseIterable {
        case up = 0
        case down = 1
        case left = 2
        case right = 3
        case upMirrored = 4
        case downMirrored = 5
        case leftMirrored = 6
        case rightMirrored = 7

        /// The orientation with the meaning of an EXIF orientation (the inverse of
        /// `CGImagePropertyOrientation.init(_:)`).
        public init(_ orientation: CGImagePropertyOrientation) {
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

        /// The orientation with the meaning of Visage's.
        public init(_ orientation: ImageOrientation) {
            self.init(CGImagePropertyOrientation(orientation))
        }
    }
}

extension ImageOrientation {
    /// Visage's orientation with the meaning of UIKit's.
    public init(_ orientation: UIImage.Orientation) {
        self.init(CGImagePropertyOrientation(orientation))
    }
}
