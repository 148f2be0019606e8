import ArgumentParser
import Foundation
import Visage

/// Runs one analysis per image over any number of images: read → decode → analyse → write, with
/// `jobs` images in flight at once on threads of their own.
///
/// One thread lists the paths (folders, `--files-from`) and keeps those of this shard; `jobs` workers
/// each read, decode and analyse one image at a time; results are written in input order (or as
/// they finish with `--unordered`), each flushed as one `write` so a reader of the pipe sees every
/// line at once. The lister stays at most ``window`` images ahead of the writer, so memory is bounded
/// by the images in flight, whatever the size of the collection or of the list. Once that far ahead
/// it sleeps until the writer has caught up half way and then refills in one go: a wake-up every few
/// images rather than one per image, each of which cost a futex call and a context switch.
///
/// A failed image becomes an error record (`--on-error record`) or a line on stderr and exit status 1
/// at the end (`--on-error fail`); either way the other images are still analysed.
final class BatchPipeline: @unchecked Sendable {
    /// What the run needs from a command: its result for one path, as the bytes to print (a JSON line
    /// or text) or, with `--output`, the JSON file's content.
    typealias Work = @Sendable (_ path: String) throws -> Data

    private let options: BatchOptions
    private let json: Bool
    private let jobs: Int
    private let work: Work
    private let outputs: OutputTree?
    private let shard: Shard?
    private let progress: ProgressBar?

    // Shared state, guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [(index: Int, path: String)] = []
    private var results: [Int: Outcome] = [:]
    private var listed = 0
    private var written = 0
    private var listingEnded = false
    private var failures = 0
    private var skipped = 0
    private var listingError: (any Error)?
    private var listerWaiting = false

    /// How far the lister may run ahead of the writer: paths queued plus results not yet written
    /// (decoded images are only ever the `jobs` being analysed).
    private var window: Int { max(2 * jobs, 16) }

    private enum Outcome {
        case result(Data)
        case failure(path: String, ErrorRecord)
    }

    /// - Parameter json: error records are JSON (else a text line); with `--output` they always are.
    init(options: BatchOptions, json: Bool, jobs: Int? = nil, work: @escaping Work) throws {
        self.options = options
        self.json = json || options.output != nil
        self.jobs = jobs ?? options.jobCount
        self.work = work
        outputs = options.output.map(OutputTree.init)
        do {
            shard = try options.resolvedShard()
        } catch let error as BatchUsageError {
            throw error.exit()
        }
        progress = isatty(STDERR_FILENO) == 1 ? ProgressBar(total: nil) : nil
    }

    /// Runs over `paths` (folders expanded) and then the `--files-from` list.
    /// - Throws: `ExitCode(1)` when an image failed under `--on-error fail`; a `ValidationError` (exit 2)
    ///   when the command line names no image at all or the list cannot be read.
    func run(paths: [String]) async throws {
        let list: PathList?
        do {
            list = try options.filesFrom.map(PathList.init)
        } catch {
            throw BatchUsageError("\(error)").exit()
        }
        if progress != nil, list == nil {
            // Counting is a directory walk without decoding: cheap beside the analysis, and it gives an ETA.
            progress?.total = ImageInputs.expand(paths, recursive: options.recursive).filter { shard?.contains($0) ?? true }.count
        }
        let walk = ImageInputs.Walk(paths, recursive: options.recursive)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for _ in 0..<jobs {
                group.enter()
                Thread.detachNewThread { [self] in
                    workerLoop()
                    group.leave()
                }
            }
            group.enter()
            Thread.detachNewThread { [self] in
                var walk = walk
                produce(from: &walk, then: list)
                group.leave()
            }
            group.notify(queue: .global()) { done.resume() }
        }
        progress?.clear()
        if let listingError { throw BatchUsageError("\(listingError)").exit() }
        if list == nil, listed + skipped == 0, shard == nil {
            throw ValidationError("no image files found in the paths given")
        }
        if let shard, listed + skipped == 0 {
            StandardError.write("visage: no images in \(shard)")
        }
        if failures > 0, options.errorMode == .fail {
            if listed > 1 { StandardError.write("visage: \(failures) of \(listed) files failed") }
            throw ExitCode(1)
        }
    }

    /// The lister: every path of this shard, in order, never more than the window ahead of the writer.
    private func produce(from walk: inout ImageInputs.Walk, then list: PathList?) {
        func offer(_ path: String) {
            if let shard, !shard.contains(path) { return }
            if options.skipExisting, let outputs, outputs.exists(for: path) {
                condition.lock()
                skipped += 1
                condition.unlock()
                return
            }
            condition.lock()
            if listed - written >= window {
                listerWaiting = true
                while listed - written > window / 2 { condition.wait() }
                listerWaiting = false
            }
            queue.append((listed, path))
            listed += 1
            if listed == DebugBuildWarning.manyImages { DebugBuildWarning.warn(about: "many images") }
            condition.broadcast()
            condition.unlock()
        }
        while let path = walk.next() { offer(path) }
        if let list {
            while let path = list.next() { offer(path) }
            if let error = list.error {
                condition.lock()
                listingError = error
                condition.unlock()
            }
        }
        condition.lock()
        listingEnded = true
        condition.broadcast()
        condition.unlock()
    }

    private func workerLoop() {
        while true {
            condition.lock()
            while queue.isEmpty, !listingEnded { condition.wait() }
            guard !queue.isEmpty else {
                condition.unlock()
                return
            }
            let (index, path) = queue.removeFirst()
            condition.unlock()
            let outcome = analyse(path)
            condition.lock()
            if options.unordered {
                emit(outcome)
            } else {
                results[index] = outcome
                while let ready = results.removeValue(forKey: written) { emit(ready) }
            }
            // Only the lister waits for results, and only until the writer is half way back.
            if listerWaiting, listed - written <= window / 2 { condition.broadcast() }
            condition.unlock()
        }
    }

    /// One image's result, already written to its file with `--output`.
    private func analyse(_ path: String) -> Outcome {
        guard !path.isEmpty else {
            return .failure(path: path, ErrorRecord(code: .unreadableFile, message: "an empty line of the list names no file"))
        }
        do {
            let data = try work(path)
            if let outputs {
                try outputs.write(data, for: path)
                return .result(Data())
            }
            return .result(data)
        } catch let error as OutputTreeError {
            return .failure(path: path, ErrorRecord(code: .processingFailed, message: error.description))
        } catch {
            return .failure(path: path, ErrorRecord(error))
        }
    }

    /// Writes one outcome; called with the lock held, so lines never interleave.
    private func emit(_ outcome: Outcome) {
        written += 1
        switch outcome {
        case .result(let data):
            if !data.isEmpty { FileHandle.standardOutput.write(data) }
        case .failure(let path, let error):
            failures += 1
            switch options.errorMode {
            case .record:
                let line = json
                    ? (try? JSONOutput.encodedLine(ImageErrorRecord(image: path, error: error))) ?? Data()
                    : Data("\(path): error \(error.code.rawValue): \(Self.oneLine(error.message))\n".utf8)
                FileHandle.standardOutput.write(line)
            case .fail:
                progress?.clear()
                StandardError.write("visage: \(path): \(error.message)")
            }
        }
        progress?.show(done: written)
    }

    /// A message on one line, so a text error record is one line too.
    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ")
    }
}
