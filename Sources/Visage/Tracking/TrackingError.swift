/// Why a frame could not be tracked.
public enum TrackingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An option is outside its valid range.
    case invalidParameter(name: String, value: String, rule: String)
    /// The face detector failed (a model could not be loaded).
    case detection(FaceDetectionError)
    /// The mesh stage failed (a model could not be loaded or run).
    case landmarks(reason: String)
    /// The frame source failed.
    case video(VideoError)

    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let rule): "invalid \(name) \(value): \(rule)"
        case .detection(let error): "\(error)"
        case .landmarks(let reason): "face landmarks: \(reason)"
        case .video(let error): "\(error)"
        }
    }
}
