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
    /// Runs like `run(_:workers:)`, using what `uniformRows` knows of the inputs' rows and describing
    /// the outputs' (``UniformRows``); the values are those `run(_:workers:)` writes. By default it
    /// runs `run(_:workers:)` and leaves the outputs unknown.
    func run(_ tensors: TensorPointers, workers: Workers, uniformRows: UniformRows)
    /// What a per-layer profile shows: the kind and the shapes that decide its cost.
    var summary: String { get }
    /// Multiply-accumulates per run, for throughput in profiles (0 where it means nothing).
    var multiplyAccumulates: Int { get }
    /// How `run` shares its output among `threads` threads (``OutputSplit``'s rule); one part
    /// for operations that always run on the calling thread.
    func split(threads: Int) -> OutputSplit
}

extension Operation {
    var summary: String { String(describing: type(of: self)) }
    var multiplyAccumulates: Int { 0 }
    func split(threads: Int) -> OutputSplit { .serial }

    func run(_ tensors: TensorPointers, workers: Workers, uniformRows: UniformRows) {
        run(tensors, workers: workers)
        for tensor in writes { uniformRows.forget(tensor) }
    }
}

/// Who runs an operation: the calling thread alone, or it and an interpreter's helper threads.
struct Workers {
    let pool: WorkerPool?
    static let callerOnly = Workers(pool: nil)
    /// Threads that may share an operator now: with a pool, its caller, helpers and guests (``WorkerPool/threadCount``).
    var count: Int { pool?.threadCount ?? 1 }
}

/// Runs `body` on each of `split`'s row ranges of `0..<rows`, in parallel when more than one.
@inline(__always)
func forEachRowRange(_ rows: Int, split: OutputSplit, workers: Workers, _ body: (Range<Int>) -> Void) {
    guard split.parts > 1, let pool = workers.pool else {
        body(0 ..< rows)
        return
    }
    // `run` returns only when every part is done; each part writes disjoint rows.
    pool.run(parts: split.parts) { part in body(split.range(part, of: rows)) }
}

/// Runs `body(rows, channels)` on each of `split`'s blocks of an output of `rows` rows ×
/// `channels` channels (in panels of `panelWidth`), in parallel when more than one.
@inline(__always)
func forEachOutputBlock(
    rows: Int, channels: Int, panelWidth: Int, split: OutputSplit, workers: Workers,
    _ body: (Range<Int>, Range<Int>) -> Void
) {
    guard split.parts > 1, let pool = workers.pool else {
        body(0 ..< rows, 0 ..< channels)
        return
    }
    // `run` returns only when every part is done; each part writes a disjoint block.
    switch split.axis {
    case .rows:
        pool.run(parts: split.parts) { part in body(split.range(part, of: rows), 0 ..< channels) }
    case .channels:
        let panels = (channels + panelWidth - 1) / panelWidth
        pool.run(parts: split.parts) { part in
            let range = split.range(part, of: panels)
            body(0 ..< rows, range.lowerBound * panelWidth ..< min(range.upperBound * panelWidth, channels))
        }
    }
}
