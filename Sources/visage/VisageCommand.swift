import ArgumentParser
import Foundation
import VisageNN

@main
struct VisageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visage",
        abstract: "Face detection, landmarks and contours, on any platform Swift runs on.",
        discussion: "Exit status: 0 success, 1 a file could not be processed, 2 usage error.",
        subcommands: [InfoCommand.self, DetectCommand.self, ContoursCommand.self, TrackCommand.self, ServeCommand.self, RunModelCommand.self, KernelBenchmarkCommand.self, BenchmarkCommand.self])

    /// Parses and runs with Visage's exit codes: usage errors exit 2 (swift-argument-parser's own
    /// default is 64), processing errors 1.
    static func main() async {
        PeakMemoryReport.registerIfAsked()
        if let problem = KernelISA.requestProblem(ProcessInfo.processInfo.environment["VISAGE_KERNELS"]) {
            FileHandle.standardError.write(Data("warning: \(problem)\n".utf8))
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// With `VISAGE_PEAK_MEMORY_FILE` set, the process writes its peak resident memory (VmHWM, bytes) to that
/// file at exit. Tests read it instead of wait4's ru_maxrss, which on Linux also counts the spawning
/// process's memory from before the exec.
enum PeakMemoryReport {
    nonisolated(unsafe) private static var path: String?

    static func registerIfAsked() {
        guard let path = ProcessInfo.processInfo.environment["VISAGE_PEAK_MEMORY_FILE"], !path.isEmpty else { return }
        Self.path = path
        atexit {
            guard let path = PeakMemoryReport.path,
                  let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                  let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            else { return }
            try? Data("\(kib * 1024)".utf8).write(to: URL(fileURLWithPath: path))
        }
    }
}
