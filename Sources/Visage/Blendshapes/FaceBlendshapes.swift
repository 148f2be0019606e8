/// The 52 outputs of MediaPipe's blendshape model for one face: 51 of ARKit's 52 expression
/// coefficients (all but `tongueOut`, which the model lacks), each 0 (at rest) … 1 (fully expressed),
/// plus the model's `_neutral` score.
///
/// Left and right are the subject's (see ``Blendshape``).
public struct FaceBlendshapes: Sendable, Hashable {
    /// Number of values the model gives: `_neutral` and the 51 ARKit coefficients.
    public static let outputCount = 52

    /// MediaPipe's `_neutral` output (index 0); MediaPipe advises ignoring it.
    public var neutral: Float
    /// Coefficients in ``Blendshape`` order (`values[b.rawValue - 1]`).
    public private(set) var values: [Float]

    /// The coefficients from the model's output, in its order.
    ///
    /// - Throws: ``BlendshapeError`` when the output has the wrong size or holds NaN or infinity.
    public init(modelOutput: some Collection<Float>) throws(BlendshapeError) {
        guard modelOutput.count == Self.outputCount else {
            throw .outputSize(count: modelOutput.count, expected: Self.outputCount)
        }
        let all = Array(modelOutput)
        if let bad = all.firstIndex(where: { !$0.isFinite }) { throw .nonFiniteOutput(index: bad) }
        neutral = all[0]
        values = Array(all[1...])
    }

    public subscript(_ shape: Blendshape) -> Float { values[shape.rawValue - 1] }

    /// Name → value for every coefficient, ARKit's names (for JSON output).
    public var named: [String: Float] {
        Dictionary(uniqueKeysWithValues: Blendshape.allCases.map { ($0.description, self[$0]) })
    }
}
