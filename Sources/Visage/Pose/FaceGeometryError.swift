/// Why the head-pose stage could not fit the canonical face.
public enum FaceGeometryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The geometry metadata file is not the protobuf the stage reads; `reason` says which rule failed.
    case malformedMetadata(reason: String)
    /// The mesh has fewer points than the canonical face model's vertices.
    case meshSize(count: Int, expected: Int)
    /// The landmarks cannot be fitted: too compact, not finite, or the image has no area.
    case degenerateLandmarks(reason: String)

    public var description: String {
        switch self {
        case let .malformedMetadata(reason): "face geometry metadata is malformed: \(reason)"
        case let .meshSize(count, expected): "mesh has \(count) points; the canonical face has \(expected)"
        case let .degenerateLandmarks(reason): "cannot fit a head pose: \(reason)"
        }
    }
}
