/// Why a face's capture quality could not be measured.
public enum CaptureQualityError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The mesh was computed on a picture of another size than the image given.
    case imageMismatch(meshWidth: Int, meshHeight: Int, imageWidth: Int, imageHeight: Int)
    /// The mesh cannot frame a face region (too few points, no area).
    case degenerateFace(reason: String)

    public var description: String {
        switch self {
        case let .imageMismatch(mw, mh, iw, ih):
            "the mesh belongs to a \(mw)×\(mh) picture but the upright image is \(iw)×\(ih)"
        case let .degenerateFace(reason): "cannot measure capture quality: \(reason)"
        }
    }
}
