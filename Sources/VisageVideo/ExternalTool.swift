import Foundation

/// A helper program found on `PATH` (or at an explicit path), run as a subprocess.
package struct ExternalTool: Sendable {
    package let name: String
    package let executable: URL

    /// Finds `name` on `PATH`, or takes `path` as is when given.
    /// - Throws: ``VideoError/toolMissing(tool:package:)`` naming the Debian `package` to install.
    package init(_ name: String, package: String, path: String? = nil) throws(VideoError) {
        self.name = name
        let candidates = path.map { [$0] }
            ?? (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw .toolMissing(tool: name, package: package)
        }
        executable = URL(fileURLWithPath: found)
    }

    /// Runs to completion and returns standard output.
    /// - Throws: ``VideoError/toolFailed(tool:reason:)`` with the program's error output when it fails.
    package func run(_ arguments: [String]) throws(VideoError) -> Data {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw .toolFailed(tool: name, reason: "cannot start \(executable.path): \(error)") }
        // Probe output is small; errors are read on another thread so neither pipe can fill and block.
        let errorText = ErrorCollector(errors.fileHandleForReading)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .toolFailed(tool: name, reason: "exit status \(process.terminationStatus): \(errorText.text)")
        }
        return data
    }
}

/// Drains a subprocess's error output on a background thread and keeps its last 4 KB.
package final class ErrorCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    package init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock {
                    data.append(chunk)
                    if data.count > 4096 { data = data.suffix(4096) }
                }
            }
            done.signal()
        }
    }

    /// The collected text, once the program closed its error output.
    package var text: String {
        done.wait()
        done.signal()
        let text = lock.withLock { String(decoding: data, as: UTF8.self) }
        return text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").suffix(3).joined(separator: " / ")
    }
}
