import Foundation
import VisageImage

/// Why contour detection or a query on its result failed.
///
/// Every message names the value at fault and the rule it broke, so it can be shown to a user as is.
public enum ContoursError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A request or art parameter is outside its valid range.
    case invalidParameter(name: String, value: String, rule: String)
    /// `contour(at:)` or `childContour(at:)` was given an index outside `0 ..< count`.
    case indexOutOfRange(index: Int, count: Int)
    /// `contour(at:)` was given an index path that names no contour.
    case invalidIndexPath(IndexPath)
    /// The image could not be prepared (converted, resized or encoded).
    case image(ImageError)

    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let rule):
            "invalid \(name) \(value): \(rule)"
        case .indexOutOfRange(let index, let count):
            "contour index \(index) is out of range: must be in 0..<\(count)"
        case .invalidIndexPath(let path):
            "index path \(Array(path)) names no contour"
        case .image(let error):
            error.description
        }
    }
}
