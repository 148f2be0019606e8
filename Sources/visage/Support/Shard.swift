import Foundation

/// One of `count` disjoint parts of a collection: a path belongs to shard `fnv1a64(path) % count`.
///
/// The hash is FNV-1a over the path's UTF-8 bytes exactly as given, not Swift's per-process seeded
/// `Hasher`, so every run, machine and language agrees on which shard a path is in, whatever order
/// the paths come in. The shards of any count are disjoint and cover every path.
struct Shard: Equatable, CustomStringConvertible {
    let index: Int
    let count: Int

    init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1 else { throw .invalid("--shard-count \(count) must be at least 1") }
        guard (0..<count).contains(index) else {
            throw .invalid("--shard-index \(index) must be in 0…\(count - 1) (0-based, below --shard-count \(count))")
        }
        (self.index, self.count) = (index, count)
    }

    func contains(_ path: String) -> Bool {
        Int(Self.fnv1a64(path) % UInt64(count)) == index
    }

    var description: String { "shard \(index) of \(count)" }

    /// 64-bit FNV-1a: offset basis 0xcbf29ce484222325, prime 0x100000001b3.
    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}

struct ShardError: Error, CustomStringConvertible {
    var description: String
    static func invalid(_ message: String) -> ShardError { ShardError(description: message) }
}

extension Shard {
    /// The shard an array job's environment names, for `--shard auto`, and the variable it came from.
    ///
    /// The first complete match wins, in this order:
    /// - `VISAGE_SHARD_INDEX` with `VISAGE_SHARD_COUNT` (or `--shard-count`): set by hand or by any engine;
    /// - Slurm arrays: `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_MIN` (default 0), `SLURM_ARRAY_TASK_STEP`
    ///   (default 1), `SLURM_ARRAY_TASK_COUNT`: shard (ID − MIN) / STEP, so `--array=1-16` and `--array=0-14:2` work;
    /// - AWS Batch array jobs: `AWS_BATCH_JOB_ARRAY_INDEX` and `AWS_BATCH_JOB_ARRAY_SIZE`;
    /// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX`, with the count from `--shard-count` or
    ///   `VISAGE_SHARD_COUNT` (Kubernetes sets none: it is the Job's `completions`).
    ///
    /// `count` (from `--shard-count`) overrides the count an engine reports.
    static func fromEnvironment(_ environment: [String: String], count flagCount: Int?) throws(ShardError) -> (shard: Shard, source: String) {
        func integer(_ name: String) throws(ShardError) -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw .invalid("--shard auto: \(name)=\(text) is not an integer")
            }
            return value
        }
        let visageCount = try integer("VISAGE_SHARD_COUNT")
        if let index = try integer("VISAGE_SHARD_INDEX") {
            guard let count = flagCount ?? visageCount else {
                throw .invalid("--shard auto: VISAGE_SHARD_INDEX is set but neither VISAGE_SHARD_COUNT nor --shard-count is")
            }
            return (try Shard(index: index, count: count), "VISAGE_SHARD_INDEX")
        }
        if let id = try integer("SLURM_ARRAY_TASK_ID") {
            let minimum = try integer("SLURM_ARRAY_TASK_MIN") ?? 0
            let step = try integer("SLURM_ARRAY_TASK_STEP") ?? 1
            guard step >= 1, id >= minimum, (id - minimum) % step == 0 else {
                throw .invalid("--shard auto: SLURM_ARRAY_TASK_ID \(id) is not MIN \(minimum) plus a multiple of STEP \(step)")
            }
            let slurmCount = try integer("SLURM_ARRAY_TASK_COUNT")
            guard let count = flagCount ?? slurmCount else {
                throw .invalid("--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (give --shard-count)")
            }
            return (try Shard(index: (id - minimum) / step, count: count), "SLURM_ARRAY_TASK_ID")
        }
        if let index = try integer("AWS_BATCH_JOB_ARRAY_INDEX") {
            let size = try integer("AWS_BATCH_JOB_ARRAY_SIZE")
            guard let count = flagCount ?? size else {
                throw .invalid("--shard auto: AWS_BATCH_JOB_ARRAY_INDEX is set but AWS_BATCH_JOB_ARRAY_SIZE is not (give --shard-count)")
            }
            return (try Shard(index: index, count: count), "AWS_BATCH_JOB_ARRAY_INDEX")
        }
        if let index = try integer("JOB_COMPLETION_INDEX") {
            guard let count = flagCount ?? visageCount else {
                throw .invalid(
                    "--shard auto: JOB_COMPLETION_INDEX is set but Kubernetes gives no count: pass --shard-count N "
                        + "or set VISAGE_SHARD_COUNT to the Job's completions")
            }
            return (try Shard(index: index, count: count), "JOB_COMPLETION_INDEX")
        }
        throw .invalid(
            "--shard auto found no array-job index in the environment (VISAGE_SHARD_INDEX, SLURM_ARRAY_TASK_ID, "
                + "AWS_BATCH_JOB_ARRAY_INDEX or JOB_COMPLETION_INDEX)")
    }
}
