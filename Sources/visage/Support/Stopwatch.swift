import Foundation

/// Clocks and order statistics for the subcommands' `--benchmark` options and the `benchmark` command.
enum Stopwatch {
    /// Wall-clock time of a monotonic clock, milliseconds from an arbitrary start.
    static func wallMilliseconds() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e6
    }

    /// CPU time of the process, which other work on a busy machine does not inflate as it does wall-clock time.
    static func processCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) * 1e-6
    }

    /// Wall-clock and CPU milliseconds of each of `runs` calls of `body`, after `warmUp` untimed calls.
    static func measure(
        runs: Int, warmUp: Int = 0, _ body: () throws -> Void
    ) rethrows -> (wall: [Double], cpu: [Double]) {
        for _ in 0..<warmUp { try body() }
        var wall: [Double] = [], cpu: [Double] = []
        wall.reserveCapacity(runs)
        cpu.reserveCapacity(runs)
        for _ in 0..<runs {
            // The wall-clock window sits inside the CPU one, so neither clock read is counted as wall time.
            let cpuStart = processCPUMilliseconds()
            let start = wallMilliseconds()
            try body()
            wall.append(wallMilliseconds() - start)
            cpu.append(processCPUMilliseconds() - cpuStart)
        }
        return (wall, cpu)
    }

    /// The sample at `fraction` (0.5: the median, 0.9: p90) of the sorted samples; 0 when there are none.
    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
}
