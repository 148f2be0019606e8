/// ARKit's `ARAnchor`: a position and orientation in the session's world space.
///
/// Anchors are immutable snapshots: each update of a face delivers a new ``ARFaceAnchor`` with the same
/// ``identifier``, as ARKit does.
open class ARAnchor: @unchecked Sendable, CustomStringConvertible {
    public let identifier: UUID
    public let name: String?
    /// World space, metres: camera at the origin looking down −z, +y up, +x to the right of the camera's
    /// picture.
    public let transform: simd_float4x4

    public init(transform: simd_float4x4) {
        (identifier, name, self.transform) = (UUID(), nil, transform)
    }

    public init(name: String, transform: simd_float4x4) {
        (identifier, self.name, self.transform) = (UUID(), name, transform)
    }

    init(identifier: UUID, transform: simd_float4x4) {
        (self.identifier, name, self.transform) = (identifier, nil, transform)
    }

    open var description: String {
        "<\(type(of: self)) identifier=\(identifier) position=\(simd_make_float3(transform.columns.3))>"
    }
}

/// ARKit's `ARTrackable`: an anchor whose tracking can be lost.
public protocol ARTrackable {
    var isTracked: Bool { get }
}
