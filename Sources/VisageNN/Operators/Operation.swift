/// Where every tensor lives during one invocation, indexed by tensor id.
typealias TensorPointers = UnsafePointer<UnsafeMutablePointer<Float>>

/// One step of an execution plan: an operator (or a fusion of several) with its shapes resolved,
/// its constants packed and its tensors named by id.
///
/// Built once at model load and shared by every interpreter, so `run` keeps no state and
/// allocates nothing: the interpreter hands it the pointers of its own arena.
protocol Operation: Sendable {
    /// Tensors read at run time: activations and float constants the operation does not pack.
    var reads: [Int] { get }
    /// Tensors written.
    var writes: [Int] { get }
    func run(_ tensors: TensorPointers, workers: Workers)
    /// What a per-layer profile shows: the kind and the shapes that decide its cost.
    var summary: String { get }
    /// Multiply-accumulates per run, for throughput in profiles (0 where it means nothing).
    var multiplyAccumulates: Int { get }
}

extension Operation {
    var summary: String { String(describing: type(of: self)) }
    var multiplyAccumulates: Int { 0 }
}

/// Who runs an operation: the calling thread alone, or it and an interpreter's helper threads.
struct Workers {
    let pool: WorkerPool?
    static let callerOnly = Workers(pool: nil)
    var count: Int { (pool?.helperCount ?? 0) + 1 }
}

/// Splits `0..<rows` into contiguous ranges by ``OutputSplit``'s rule (`work` in convolution
/// multiply-accumulates) and runs `body` on each, in parallel when more than one.
@inline(__always)
func forEachRowRange(_ rows: Int, workers: Workers, work: Int, _ body: (Range<Int>) -> Void) {
    let split = OutputSplit(rows: rows, panels: 1, work: work, threads: workers.count)
    guard split.parts > 1, let pool = workers.pool else {
        body(0 ..< rows)
        return
    }
    // `run` returns only when every part is done; each part writes disjoint rows.
    pool.run(parts: split.parts) { part in body(split.range(part, of: rows)) }
}

/// Splits an output of `rows` rows × `channels` channels, in panels of `panelWidth` channels,
/// by rows or by panels (``OutputSplit``'s rule) and runs `body(rows, channels)` on each part,
/// in parallel when more than one.
@inline(__always)
func forEachOutputBlock(
    rows: Int, channels: Int, panelWidth: Int, work: Int, weightsOutweighActivations: Bool, workers: Workers,
    _ body: (Range<Int>, Range<Int>) -> Void
) {
    let panels = (channels + panelWidth - 1) / panelWidth
    let split = OutputSplit(
        rows: rows, panels: panels, work: work, weightsOutweighActivations: weightsOutweighActivations, threads: workers.count)
    guard split.parts > 1, let pool = workers.pool else {
        body(0 ..< rows, 0 ..< channels)
        return
    }
    // `run` returns only when every part is done; each part writes a disjoint block.
    switch split.axis {
    case .rows:
        pool.run(parts: split.parts) { part in body(split.range(part, of: rows), 0 ..< channels) }
    case .channels:
        pool.run(parts: split.parts) { part in
            let range = split.range(part, of: panels)
            body(0 ..< rows, range.lowerBound * panelWidth ..< min(range.upperBound * panelWidth, channels))
        }
    }
}
