import Foundation

/// Removes the hidden temporary files (``OutputTree``) that killed runs left in an output folder: each is
/// named `.NAME.json.tmp-HOST-PID-N`, and one is stale when HOST is this machine and no process PID exists,
/// or, whatever its host, when it is older than ``abandonedAge``: a write lives for milliseconds, and a
/// killed Kubernetes pod or cluster node never comes back under its name to clear its own.
///
/// A folder is swept once per run, before the first result is written into it: a killed run's temporary
/// file belongs to an image it did not finish, which a rerun (with or without `--skip-existing`) writes
/// again into the same folder. Recent files of other machines (a shared volume) and of live processes are
/// left alone; a reused PID keeps a stale file until it is abandoned, never removes a live one.
final class StaleTemporaries: @unchecked Sendable {  // `swept` is guarded by `lock`.
    private let lock = NSLock()
    private var swept: Set<String> = []

    /// This machine's name as temporary files carry it (`-` kept, `/` never appears in a hostname).
    static let host: String = {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return "localhost" }
        return String(cString: name)
    }()

    static let marker = ".json.tmp-"
    /// Seconds after which a temporary file of any host is abandoned.
    static let abandonedAge: TimeInterval = 3600

    /// The temporary name for `final` (a file name, no folder) in this process.
    static func temporaryName(for final: String) -> String {
        "." + final + ".tmp-\(host)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The host and PID of a temporary file's name; nil for any other name.
    static func owner(of name: String) -> (host: String, pid: pid_t)? {
        guard name.hasPrefix("."), let range = name.range(of: marker, options: .backwards) else { return nil }
        var parts = name[range.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 3, UInt32(parts.removeLast()) != nil, let pid = pid_t(parts.removeLast()), pid > 0 else { return nil }
        return (parts.joined(separator: "-"), pid)
    }

    /// Sweeps `folder` unless this run already did.
    func sweep(_ folder: String) {
        let first = lock.withLock { swept.insert(folder).inserted }
        guard first, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let now = Date()
        for name in names {
            guard let owner = Self.owner(of: name), owner.host != Self.host || owner.pid != getpid() else { continue }
            let path = folder + "/" + name
            // kill(pid, 0) fails with ESRCH only when no such process exists (EPERM means it does).
            let dead = owner.host == Self.host && kill(owner.pid, 0) != 0 && errno == ESRCH
            var status = stat()
            let abandoned = stat(path, &status) == 0
                && now.timeIntervalSince1970 - Double(status.st_mtim.tv_sec) > Self.abandonedAge
            if dead || abandoned { unlink(path) }
        }
    }
}
