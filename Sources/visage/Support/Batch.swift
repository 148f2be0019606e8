import ArgumentParser
import Foundation

/// Runs one step per input file: a failure is reported on stderr as one line naming the file and
/// the run goes on; a progress bar is drawn on stderr when it is a terminal and there are several
/// files. Throws `ExitCode(1)` at the end when any file failed.
struct Batch {
    let inputs: [URL]
    /// The path as the user wrote it, for messages.
    let displayName: (URL) -> String

    init(paths: [String]) {
        inputs = ImageInputs.expand(paths).map { URL(fileURLWithPath: $0) }
        displayName = { $0.relativePath }
    }

    func run(_ step: (URL) async throws -> Void) async throws {
        let progress = inputs.count > 1 && isatty(STDERR_FILENO) == 1 ? ProgressBar(total: inputs.count) : nil
        if inputs.count >= DebugBuildWarning.manyImages { DebugBuildWarning.warn(about: "\(inputs.count) images") }
        var failures = 0
        for (index, url) in inputs.enumerated() {
            do {
                try await step(url)
            } catch {
                failures += 1
                progress?.clear()
                StandardError.write("visage: \(displayName(url)): \(error)")
            }
            progress?.show(done: index + 1)
        }
        progress?.clear()
        if inputs.isEmpty {
            throw ValidationError("no image files found in the paths given")
        }
        if failures > 0 {
            if inputs.count > 1 { StandardError.write("visage: \(failures) of \(inputs.count) files failed") }
            throw ExitCode(1)
        }
    }
}

enum StandardError {
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
