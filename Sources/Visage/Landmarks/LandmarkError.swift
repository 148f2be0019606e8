/// Why the face-mesh stage could not place landmarks.
public enum LandmarkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A model output holds `count` values where the stage needs `expected`.
    case outputSize(name: String, count: Int, expected: Int)
    /// A model output holds NaN or infinity at `index`.
    case nonFiniteOutput(name: String, index: Int)
    /// The face box or image has no area, or a coordinate is not finite, so no region can be cut.
    case degenerateRegion(reason: String)
    /// Fewer landmarks than the stage reads.
    case landmarkCount(Int, expected: Int)
    /// A bundled model could not be loaded or run; `reason` is the engine's or loader's message.
    case model(reason: String)

    public var description: String {
        switch self {
        case let .outputSize(name, count, expected):
            "face mesh output '\(name)' has \(count) values; expected \(expected)"
        case let .nonFiniteOutput(name, index):
            "face mesh output '\(name)' is not finite at index \(index)"
        case let .degenerateRegion(reason):
            "cannot cut a face region: \(reason)"
        case let .landmarkCount(count, expected):
            "\(count) landmarks given; expected \(expected)"
        case let .model(reason):
            "face mesh models: \(reason)"
        }
    }
}
