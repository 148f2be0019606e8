import Foundation
import Testing
@testable import VisageNN

/// The core count defaults are sized from: the affinity mask and the cgroup CPU quota limit it, from
/// /proc and /sys files given here as text.
struct AvailableCoresTests {
    /// Kubernetes (cgroup v2): a pod limited to 1.5 CPUs on a 64-core node gets 2; a parent's tighter
    /// limit wins; `max` and a missing file do not limit.
    @Test func cgroupV2QuotaLimits() {
        let files = [
            "/sys/fs/cgroup/kubepods/pod1/ctr/cpu.max": "150000 100000\n",
            "/sys/fs/cgroup/kubepods/pod1/cpu.max": "max 100000\n",
        ]
        #expect(AvailableCores.count(online: 64, status: nil, cgroups: "0::/kubepods/pod1/ctr\n", read: { files[$0] }) == 2)
        let parent = files.merging(["/sys/fs/cgroup/kubepods/cpu.max": "100000 100000\n"]) { $1 }
        #expect(AvailableCores.count(online: 64, status: nil, cgroups: "0::/kubepods/pod1/ctr\n", read: { parent[$0] }) == 1)
        // A container's own cgroup at the root of its mount, and a quota below one core.
        #expect(AvailableCores.count(online: 8, status: nil, cgroups: "0::/\n", read: { $0 == "/sys/fs/cgroup/cpu.max" ? "20000 100000" : nil }) == 1)
        // Hybrid hierarchies mount v2 at /sys/fs/cgroup/unified.
        #expect(AvailableCores.count(online: 8, status: nil, cgroups: "0::/a\n", read: { $0 == "/sys/fs/cgroup/unified/a/cpu.max" ? "300000 100000" : nil }) == 3)
        #expect(AvailableCores.count(online: 8, status: nil, cgroups: "0::/a\n", read: { _ in "max 100000" }) == 8)
        #expect(AvailableCores.count(online: 8, status: nil, cgroups: "0::/a\n", read: { _ in nil }) == 8)
    }

    /// Docker and AWS Batch on cgroup v1: the `cpu` controller's quota over its period; -1 is none.
    @Test func cgroupV1QuotaLimits() {
        let cgroups = "5:memory:/docker/abc\n2:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n"
        let files = ["/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "400000\n", "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n"]
        #expect(AvailableCores.count(online: 96, status: nil, cgroups: cgroups, read: { files[$0] }) == 4)
        // Mounted as the container's root under `cpu`.
        let root = ["/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "250000", "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000"]
        #expect(AvailableCores.count(online: 96, status: nil, cgroups: cgroups, read: { root[$0] }) == 3)
        let unlimited = ["/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1", "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000"]
        #expect(AvailableCores.count(online: 96, status: nil, cgroups: "1:cpu:/\n", read: { unlimited[$0] }) == 96)
    }

    /// `taskset` and Slurm's CPU sets: the CPUs set in `Cpus_allowed`, words separated by commas; the
    /// smallest of mask, quota and online count; never below 1, whatever the files say.
    @Test func affinityMaskLimitsAndNothingGoesBelowOne() {
        #expect(AvailableCores.count(online: 64, status: "Name:\tvisage\nCpus_allowed:\t00000000,00000005\n", cgroups: nil, read: { _ in nil }) == 2)
        #expect(AvailableCores.count(online: 64, status: "Cpus_allowed:\tff\n", cgroups: "0::/\n", read: { _ in "300000 100000" }) == 3)
        #expect(AvailableCores.count(online: 2, status: "Cpus_allowed:\tff\n", cgroups: nil, read: { _ in nil }) == 2)
        #expect(AvailableCores.count(online: 4, status: "Cpus_allowed:\t0\n", cgroups: "0::/\n", read: { _ in "0 100000" }) == 4)
        #expect(AvailableCores.count(online: 0, status: "garbage", cgroups: "::\n0::/../..\n", read: { _ in "x y" }) == 1)
        // This process: at least 1 and no more than the online processors.
        #expect((1...max(1, ProcessInfo.processInfo.activeProcessorCount)).contains(AvailableCores.count))
    }
}
