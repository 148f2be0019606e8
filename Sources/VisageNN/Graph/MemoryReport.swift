import Foundation

/// How much memory a planned model needs, for benchmarks and the acceptance check that the
/// arena stays within 2× of the largest set of simultaneously live activations.
package struct MemoryReport: Sendable, Equatable, CustomStringConvertible {
    /// Bytes of the per-interpreter arena holding every activation.
    package var arenaBytes: Int
    /// Bytes of the constants as float32 after load (weights, biases, slopes).
    package var weightBytes: Int
    /// Largest total size of activations alive at the same step: the floor for any arena.
    package var peakLiveActivationBytes: Int
    /// Total size of all activations, as an arena without reuse would need.
    package var activationBytes: Int
    /// Most the arena may take for a file of this size (`Graph.activationByteLimit`).
    package var arenaLimitBytes: Int

    package var description: String {
        func megabytes(_ bytes: Int) -> String {
            let tenths = (bytes * 10 + (1 << 19)) >> 20
            return "\(tenths / 10).\(tenths % 10) MiB"
        }
        let ratio = peakLiveActivationBytes > 0 ? Double(arenaBytes) / Double(peakLiveActivationBytes) : 1
        return "arena \(megabytes(arenaBytes)) (\(String(format: "%.2f", ratio))× the peak of live activations, "
            + "\(megabytes(peakLiveActivationBytes)); all activations \(megabytes(activationBytes)); weights \(megabytes(weightBytes)))"
    }
}
