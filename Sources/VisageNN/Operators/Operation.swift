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

/// Splits `0..<rows` into up to `workers.count` contiguous ranges and runs `body` on each, in
/// parallel when more than one. `work` (multiply-accumulates, say) keeps small layers on one
/// thread, where handing off would cost more than it saves.
@inline(__always)
func forEachRowRange(_ rows: Int, workers: Workers, work: Int, _ body: (Range<Int>) -> Void) {
    let parts = min(workers.count, rows, max(1, work / minimumWorkPerThread))
    guard parts > 1, let pool = workers.pool else {
        body(0 ..< rows)
        return
    }
    // `run` returns only when every part is done; each part writes disjoint rows.
    pool.run(parts: parts) { part in
        body(rows * part / parts ..< rows * (part + 1) / parts)
    }
}

/// About 10 µs of convolution on one core: less than that per thread does not pay for the hand-off.
private let minimumWorkPerThread = 200_000
