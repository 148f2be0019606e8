import Foundation

/// One raw output tensor of a custom model: values row-major in `shape`.
public struct ModelOutput: Sendable, Hashable, Codable {
    public var name: String
    public var shape: [Int]
    public var values: [Float]

    public init(name: String, shape: [Int], values: [Float]) {
        (self.name, self.shape, self.values) = (name, shape, values)
    }

    /// The values through a numerically stable softmax (for classifiers that output logits).
    public func softmax() -> [Float] {
        guard let largest = values.max() else { return [] }
        let exponentials = values.map { Foundation.exp(Double($0 - largest)) }
        let total = exponentials.reduce(0, +)
        return exponentials.map { Float($0 / total) }
    }

    /// The `k` highest scores, best first (ties by lower index), named from `labels` where it has one;
    /// `softmax` first turns logits into probabilities.
    public func topK(_ k: Int, labels: [String]? = nil, softmax applySoftmax: Bool = false) -> [Classification] {
        let scores = applySoftmax ? softmax() : values
        return scores.indices
            .sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
            .prefix(max(0, k))
            .map { index in
                Classification(index: index, label: labels.flatMap { $0.indices.contains(index) ? $0[index] : nil }, score: scores[index])
            }
    }
}

/// One class of a classification output.
public struct Classification: Sendable, Hashable, Codable {
    /// Position in the output tensor.
    public var index: Int
    /// The labels file's name for it, when there is one.
    public var label: String?
    public var score: Float

    public init(index: Int, label: String?, score: Float) {
        (self.index, self.label, self.score) = (index, label, score)
    }
}
