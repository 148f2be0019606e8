import ArgumentParser
import Foundation
import VisageNN

/// `visage kernel-benchmark`: throughput of the SIMD kernels on layers shaped like the bundled
/// models' hottest ones, per available kernel set.
///
/// ```
/// $ swift run -c release visage kernel-benchmark --kernels avx2_fma
/// avx2_fma peak: 61.9 GMAC/s (twelve independent FMA chains on one core)
/// kernels   layer                          median µs   best µs  GMAC/s median  GMAC/s best  % of peak
/// avx2_fma  1×1 32×32×96→96                    ...
/// ```
struct KernelBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kernel-benchmark",
        abstract: "Time the convolution and elementwise kernels (GMAC/s); build with -c release.",
        discussion: "Each layer runs once to warm up, then --runs times; the median and the fastest run are printed. "
            + "Max-pool rows count comparisons, add rows additions. The core's peak (twelve independent FMA chains of the "
            + "set's widest vectors) is timed first and each layer's best run is given as a share of it.")

    @Option(help: "Timed runs per layer (1...10000).")
    var runs = 50

    @Option(help: "Kernel set to time: portable, avx2_fma, avx512 or neon. Default: every set this CPU runs.")
    var kernels: String?

    func validate() throws {
        guard (1...10_000).contains(runs) else {
            throw ValidationError("--runs must be between 1 and 10000, got \(runs)")
        }
        if let kernels {
            guard let isa = KernelISA(rawValue: kernels), isa.isAvailable else {
                let names = KernelISA.available.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--kernels \(kernels) is not available on this CPU; choose one of: \(names)")
            }
        }
    }

    func run() {
        let sets = kernels.flatMap(KernelISA.init(rawValue:)).map { [$0] } ?? KernelISA.available
        // The core's peak per set, timed first: each layer's best run is given as a share of it.
        var peaks: [KernelISA: Double] = [:]
        for isa in sets {
            guard let peak = KernelBenchmark.peakGigaOperationsPerSecond(isa: isa) else { continue }
            peaks[isa] = peak
            print("\(isa.rawValue) peak: \(String(format: "%.1f", peak)) GMAC/s (twelve independent FMA chains on one core)")
        }
        print(row("kernels", "layer", "median µs", "best µs", "GMAC/s median", "GMAC/s best", "% of peak"))
        // Layer by layer with the sets side by side: this machine's speed drifts from minute to
        // minute, so sets timed next to each other compare fairly.
        for layer in KernelBenchmark.representativeLayers {
            for isa in sets {
                let result = KernelBenchmark.run(layers: [layer], isa: isa, runs: runs)[0]
                print(row(
                    isa.rawValue, result.layer.name,
                    String(format: "%.1f", result.median * 1e6), String(format: "%.1f", result.best * 1e6),
                    String(format: "%.2f", result.gigaOperationsPerSecond),
                    String(format: "%.2f", result.bestGigaOperationsPerSecond),
                    peaks[isa].map { String(format: "%.0f %%", 100 * result.bestGigaOperationsPerSecond / $0) } ?? "—"))
            }
        }
    }

    private func row(_ isa: String, _ layer: String, _ columns: String...) -> String {
        isa.padding(toLength: 10, withPad: " ", startingAt: 0)
            + layer.padding(toLength: 32, withPad: " ", startingAt: 0)
            + columns.map { String(repeating: " ", count: max(0, 14 - $0.count)) + $0 }.joined()
    }
}
