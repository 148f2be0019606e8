/// Why the blendshape stage could not produce coefficients.
public enum BlendshapeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The model's output holds `count` values where 52 are expected.
    case outputSize(count: Int, expected: Int)
    /// The model's output is NaN or infinite at `index`.
    case nonFiniteOutput(index: Int)
    /// The mesh has fewer points than the model's input reads.
    case meshSize(count: Int, expected: Int)

    public var description: String {
        switch self {
        case let .outputSize(count, expected): "blendshape output has \(count) values; expected \(expected)"
        case let .nonFiniteOutput(index): "blendshape output is not finite at index \(index)"
        case let .meshSize(count, expected): "mesh has \(count) points; the blendshape input needs \(expected)"
        }
    }
}
