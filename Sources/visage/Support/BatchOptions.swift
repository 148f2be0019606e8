import ArgumentParser
import Foundation
import VisageNN

/// The options `visage detect` and `visage contours` share for running over many images: where the
/// paths come from, which of them this process takes, how many run at once, where results go, and
/// what a failed image does to the run.
struct BatchOptions: ParsableArguments {
    enum OnError: String, ExpressibleByArgument, CaseIterable {
        /// An error record in place of the image's result; the run goes on and exits 0.
        case record
        /// The error on stderr; the run goes on and exits 1 at the end.
        case fail
    }

    @Option(help: "Images analysed at once (default: the cores this process may use: the CPU affinity mask and the cgroup CPU quota count, as set by taskset, Slurm, Docker or Kubernetes).")
    var jobs: Int?

    @Flag(help: "Write results as they finish instead of in input order.")
    var unordered = false

    @Flag(help: "Expand folders to the images anywhere below them, not only directly inside.")
    var recursive = false

    @Option(help: ArgumentHelp(
        "Also read image paths from FILE, one per line; - reads stdin. Exactly one output line per input line "
            + "(an empty line gets an error record), in order, flushed at once (Spark's RDD.pipe, Hadoop Streaming, xargs).",
        valueName: "FILE|-"))
    var filesFrom: String?

    @Option(help: ArgumentHelp(
        "Write one JSON file per image under DIR, at the image's path with .json added (created atomically: "
            + "temp file, then rename). stdout then carries only error records.",
        valueName: "DIR"))
    var output: String?

    @Flag(help: "With --output: skip images whose result file already exists, to resume a killed run.")
    var skipExisting = false

    @Option(help: ArgumentHelp(
        "record: a failed image gets {\"image\", \"error\": {\"code\", \"message\"}} in place of its result and the "
            + "run exits 0 (the default with --files-from); fail: the error goes to stderr and the run exits 1 "
            + "(the default otherwise).",
        valueName: "record|fail"))
    var onError: OnError?

    @Option(help: "Take only the images in this shard (0-based): those whose path, as given, hashes (FNV-1a 64) to it modulo --shard-count.")
    var shardIndex: Int?

    @Option(help: "The number of shards.")
    var shardCount: Int?

    @Option(help: ArgumentHelp(
        "auto: take the shard from an array job's environment (VISAGE_SHARD_INDEX/COUNT, Slurm's SLURM_ARRAY_TASK_*, "
            + "AWS Batch's AWS_BATCH_JOB_ARRAY_INDEX/SIZE, Kubernetes' JOB_COMPLETION_INDEX with --shard-count or "
            + "VISAGE_SHARD_COUNT); which one is printed on stderr.",
        valueName: "auto"))
    var shard: String?

    func validate() throws {
        if let jobs, !(1...1024).contains(jobs) {
            throw ValidationError("--jobs \(jobs) must be between 1 and 1024")
        }
        if skipExisting, output == nil {
            throw ValidationError("--skip-existing needs --output DIR (it skips images whose result file exists)")
        }
        if let shard, shard != "auto" {
            throw ValidationError("--shard \(shard): the only value is auto (use --shard-index K --shard-count N otherwise)")
        }
        if shard != nil, shardIndex != nil {
            throw ValidationError("give --shard auto or --shard-index, not both")
        }
        if shardIndex != nil, shardCount == nil {
            throw ValidationError("--shard-index needs --shard-count")
        }
        if shardIndex == nil, shard == nil, shardCount != nil {
            throw ValidationError("--shard-count needs --shard-index K or --shard auto")
        }
        if let shardIndex, let shardCount {
            do { _ = try Shard(index: shardIndex, count: shardCount) } catch { throw ValidationError(error.description) }
        }
    }

    /// The shard to keep, nil for all; with `--shard auto`, read from `environment` and reported on stderr.
    func resolvedShard(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Shard? {
        do {
            if shard == "auto" {
                let (shard, source) = try Shard.fromEnvironment(environment, count: shardCount)
                StandardError.write("visage: \(shard) from \(source)")
                return shard
            }
            if let shardIndex, let shardCount { return try Shard(index: shardIndex, count: shardCount) }
            return nil
        } catch {
            throw BatchUsageError(error.description)
        }
    }

    var errorMode: OnError { onError ?? (filesFrom != nil ? .record : .fail) }

    var jobCount: Int { jobs ?? AvailableCores.count }
}

/// A usage error found while running (the environment's shard, an unreadable list): printed as
/// `visage: <message>` on stderr, exit status 2.
struct BatchUsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }

    func exit() -> ExitCode {
        StandardError.write("visage: \(message)")
        return ExitCode(2)
    }
}
