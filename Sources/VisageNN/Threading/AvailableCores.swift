import Foundation

/// The cores this process may keep busy: the online processors, or fewer when its CPU affinity mask
/// (`taskset`, Slurm's and containers' CPU sets) or its cgroup's CPU quota (Kubernetes and Docker CPU
/// limits, AWS Batch's vCPUs) allows fewer.
///
/// Foundation's `activeProcessorCount` counts the machine's processors on Linux: a container limited to
/// 2 CPUs on a 64-core node would start 64 batch jobs or inference slots, each held to a sliver of the
/// quota, with 32 times the memory. Defaults sized from the core count (`--jobs`, `--max-inferences`, the
/// engine's threads, accurate mode's workers) read this instead.
package enum AvailableCores {
    /// Read once per process.
    package static let count: Int = count(
        online: ProcessInfo.processInfo.activeProcessorCount,
        status: try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        cgroups: try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
        read: { try? String(contentsOfFile: $0, encoding: .utf8) })

    /// The smallest of the online count, the affinity mask's CPUs (`Cpus_allowed` in `status`, the text of
    /// /proc/self/status) and the CPU quota, rounded up, of the process's cgroup or any cgroup above it
    /// (`cgroups`, the text of /proc/self/cgroup; `read` gives a file's text under /sys/fs/cgroup). What
    /// cannot be read does not limit; the result is at least 1.
    package static func count(online: Int, status: String?, cgroups: String?, read: (String) -> String?) -> Int {
        var cores = max(1, online)
        if let allowed = status.flatMap(affinityCount), allowed > 0 { cores = min(cores, allowed) }
        if let quota = cgroups.flatMap({ quotaCores(cgroups: $0, read: read) }) { cores = min(cores, quota) }
        return max(1, cores)
    }

    /// The CPUs set in `Cpus_allowed:` (hexadecimal words separated by commas).
    static func affinityCount(_ status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        return line.dropFirst("Cpus_allowed:".count).reduce(0) { count, character in
            count + (character.hexDigitValue?.nonzeroBitCount ?? 0)
        }
    }

    /// The tightest CPU quota along the process's cgroup path, in whole cores (rounded up), or nil when
    /// none is set. cgroup v2: `cpu.max` ("max 100000" or "QUOTA PERIOD"); v1: the `cpu` controller's
    /// `cpu.cfs_quota_us` (-1 for none) and `cpu.cfs_period_us`. A container sees its own cgroup at the
    /// root of its mount, so the root's files are read too.
    static func quotaCores(cgroups: String, read: (String) -> String?) -> Int? {
        var best: Int?
        func consider(_ quota: Double, _ period: Double) {
            guard quota > 0, period > 0, quota.isFinite, period.isFinite else { return }
            let cores = max(1, Int((quota / period).rounded(.up)))
            best = min(best ?? cores, cores)
        }
        for line in cgroups.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let controllers = fields[1].split(separator: ","), path = String(fields[2])
            if fields[0] == "0", controllers.isEmpty {
                for directory in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"].flatMap({ ancestors(of: path, under: $0) }) {
                    guard let parts = read(directory + "/cpu.max")?.split(whereSeparator: \.isWhitespace), parts.count == 2,
                          let quota = Double(parts[0]), let period = Double(parts[1]) else { continue }
                    consider(quota, period)
                }
            } else if controllers.contains("cpu") {
                for mount in ["/sys/fs/cgroup/" + controllers.joined(separator: ","), "/sys/fs/cgroup/cpu"] {
                    for directory in ancestors(of: path, under: mount) {
                        guard let quota = read(directory + "/cpu.cfs_quota_us").flatMap({ Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
                              let period = read(directory + "/cpu.cfs_period_us").flatMap({ Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
                        else { continue }
                        consider(quota, period)
                    }
                }
            }
        }
        return best
    }

    /// `mount` + `path` and each directory above it up to `mount` itself; a path with `..` gives the mount alone.
    static func ancestors(of path: String, under mount: String) -> [String] {
        let components = path.split(separator: "/").map(String.init)
        guard !components.contains("..") else { return [mount] }
        return (0...components.count).reversed().map { depth in
            ([mount] + components.prefix(depth)).joined(separator: "/")
        }
    }
}
