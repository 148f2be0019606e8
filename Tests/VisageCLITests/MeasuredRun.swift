import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `visage` with posix_spawn and reaps it with wait4, so the child's peak resident
/// memory (ru_maxrss) is known as well as its output. Output goes to temporary files, and standard
/// input can come from one.
struct MeasuredRun {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The child's peak resident set, in bytes.
    var peakMemory: Int
    var elapsed: Duration

    /// Runs in this process's working directory: give paths absolute.
    static func run(_ arguments: [String], standardInput: URL? = nil) throws -> MeasuredRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("visage-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("stdout"), err = folder.appendingPathComponent("stderr")

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput?.path ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let executable = CLIRunner.executable.path
        // The child's own peak (PeakMemoryReport); wait4's ru_maxrss also counts this test process's
        // memory from before the child's exec, however small the child.
        let peakFile = folder.appendingPathComponent("peak")
        let environment = ProcessInfo.processInfo.environment.merging(["VISAGE_PEAK_MEMORY_FILE": peakFile.path]) { $1 }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        }
        let elapsed = clock.now - start
        // WEXITSTATUS, or 128 + the signal for a child that died of one (a crash must not pass as 0 or 1).
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return MeasuredRun(
            status: exit, stdout: String(decoding: try Self.read(out), as: UTF8.self),
            stderr: String(decoding: try Self.read(err), as: UTF8.self),
            peakMemory: (try? String(contentsOf: peakFile, encoding: .utf8)).flatMap { Int($0) } ?? Int(usage.ru_maxrss) * 1024,
            elapsed: elapsed)
    }

    /// A file's bytes through FileHandle: Foundation 6.3's `Data(contentsOf:)` leaks its 4 KB read buffer
    /// for an empty file (an empty stdout or stderr here), which AddressSanitizer runs report (FUZZING.md, finding 3).
    private static func read(_ url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }
}
