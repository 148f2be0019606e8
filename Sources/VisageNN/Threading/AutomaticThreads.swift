import Foundation

/// The thread count an interpreter takes when ``InterpreterOptions/threads`` is nil: a size rule
/// over the model's plan, the same for every run and every load (no timing at load, which a busy
/// machine would skew).
///
/// For each count from 1 to the cores this process may run on, the plan's time is estimated
/// from ``OutputSplit``'s rule: every operator that splits costs its work divided by its parts,
/// plus ``handOffWork`` for the hand-off when it has more than one part. The smallest count
/// within 10 % of the best estimate wins, so threads are added only where operators are large
/// enough to share. The four bundled networks take every core of a 2-core machine this way; a
/// network of small layers stays on the calling thread.
package enum AutomaticThreads {
    /// About 1 µs on an AVX-512 core in convolution multiply-accumulates: publishing a part, a
    /// helper claiming it, and the caller waiting for the last one.
    static let handOffWork = 80_000

    static func count(for operations: [any Operation], cores: Int = AutomaticThreads.availableCores) -> Int {
        var best = (threads: 1, estimate: Int.max)
        var estimates: [Int] = []
        for threads in 1 ... max(1, cores) {
            let estimate = operations.reduce(0) { total, operation in
                let split = operation.split(threads: threads)
                return total + split.work / split.parts + (split.parts > 1 ? handOffWork : 0)
            }
            estimates.append(estimate)
            if estimate < best.estimate { best = (threads, estimate) }
        }
        return (estimates.firstIndex { $0 <= best.estimate + best.estimate / 10 } ?? 0) + 1
    }

    /// The cores this process may keep busy (``AvailableCores``: affinity mask and cgroup CPU quota).
    package static var availableCores: Int { AvailableCores.count }
}
