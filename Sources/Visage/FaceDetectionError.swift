import VisageImage

/// Why faces could not be detected or analyzed. Every message names the value and the rule it broke.
public enum FaceDetectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The image could not be read or decoded.
    case image(ImageError)
    /// A detector model could not be loaded or run: missing or altered file, or an engine failure.
    case model(name: String, reason: String)
    /// A parameter is outside its valid range.
    case invalidParameter(name: String, value: String, rule: String)
    /// The face-mesh stage (mesh, blendshapes, head pose) failed: a model could not be loaded or run, or
    /// a face's landmarks could not be fitted.
    case landmarks(reason: String)
    /// A face's capture quality could not be measured.
    case captureQuality(CaptureQualityError)

    public var description: String {
        switch self {
        case .image(let error): "cannot read the image: \(error)"
        case .model(let name, let reason): "face detector model \(name): \(reason)"
        case .invalidParameter(let name, let value, let rule): "\(name) = \(value) is invalid: \(rule)"
        case .landmarks(let reason): "face landmarks: \(reason)"
        case .captureQuality(let error): "\(error)"
        }
    }
}
