import Foundation
import Testing
import Visage

/// The job files in docs/batch run as their engines would run them: each task with the variables its
/// engine sets and nothing else, the command the file holds, and results that together are exactly a
/// single run's, each image once.
@Suite(.serialized)
struct ArrayJobTests {
    static let docs = CLIRunner.packageRoot.appendingPathComponent("docs/batch")

    /// Five copies of the samples under a manifest of their paths, as `find … | sort` writes it.
    static func manifest(in folder: BatchTests.Folder) throws -> [String] {
        let names = ["astronaut.png", "coins.png", "horse.png"]
        var paths: [String] = []
        for index in 0..<5 {
            let name = "photos/\(index % 2 == 0 ? "a" : "b")/img-\(index).png"
            try folder.add(name, from: names[index % names.count])
            paths.append(folder.url.appendingPathComponent(name).path)
        }
        try folder.write("manifest.txt", Data(paths.map { $0 + "\n" }.joined().utf8))
        return paths
    }

    /// Every result file below `root`, by the path it records, checked to be a complete face record.
    static func results(_ root: URL) throws -> [String: FacesRecord] {
        var records: [String: FacesRecord] = [:]
        for name in try BatchTests.tree(root) {
            let record = try JSONDecoder().decode(FacesRecord.self, from: Data(contentsOf: root.appendingPathComponent(name)))
            #expect(records.updateValue(record, forKey: record.image) == nil)
        }
        return records
    }

    /// The single-process run the shards must add up to.
    static func reference(_ paths: [String], in folder: BatchTests.Folder) throws -> [String: FacesRecord] {
        let run = try CLIRunner.run(["detect", "--json", "--files-from", "manifest.txt"], in: folder.url)
        #expect(run.status == 0)
        let records = try run.stdout.split(separator: "\n").map { try JSONDecoder().decode(FacesRecord.self, from: Data($0.utf8)) }
        #expect(records.map(\.image) == paths)
        return Dictionary(uniqueKeysWithValues: records.map { ($0.image, $0) })
    }

    @Test func slurmArrayScriptCoversTheManifestOnce() throws {
        let folder = try BatchTests.Folder()
        defer { folder.remove() }
        let paths = try Self.manifest(in: folder)
        let script = try String(contentsOf: Self.docs.appendingPathComponent("slurm-array.sh"), encoding: .utf8)
        // The range the script asks Slurm for, and the variables Slurm then sets per task.
        let array = try #require(script.split(separator: "\n").first { $0.hasPrefix("#SBATCH --array=") })
        let bounds = array.dropFirst("#SBATCH --array=".count).split(separator: "-").compactMap { Int($0) }
        try #require(bounds.count == 2)
        let ids = bounds[0]...bounds[1]
        for id in ids {
            let environment = [
                "SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "\(ids.lowerBound)", "SLURM_ARRAY_TASK_MAX": "\(ids.upperBound)",
                "SLURM_ARRAY_TASK_STEP": "1", "SLURM_ARRAY_TASK_COUNT": "\(ids.count)", "SLURM_CPUS_PER_TASK": "2",
                "PATH": "/usr/bin:/bin", "VISAGE": CLIRunner.executable.path, "MANIFEST": folder.url.appendingPathComponent("manifest.txt").path,
                "RESULTS": folder.url.appendingPathComponent("results").path,
            ]
            let task = try PipedChild.run(
                [Self.docs.appendingPathComponent("slurm-array.sh").path], in: folder.url, environment: environment,
                executable: URL(fileURLWithPath: "/bin/bash"))
            #expect(task.status == 0, "\(task.stderr)")
            #expect(task.stderr.hasPrefix("visage: shard \(id - ids.lowerBound) of \(ids.count) from SLURM_ARRAY_TASK_ID\n"))
        }
        #expect(try Self.results(folder.url.appendingPathComponent("results")) == Self.reference(paths, in: folder))
    }

    @Test func kubernetesIndexedJobCoversTheManifestOnce() throws {
        let folder = try BatchTests.Folder()
        defer { folder.remove() }
        let paths = try Self.manifest(in: folder)
        let manifest = try String(contentsOf: Self.docs.appendingPathComponent("kubernetes-indexed-job.yaml"), encoding: .utf8)
        func value(after key: String) throws -> Substring {
            let range = try #require(manifest.range(of: key))
            return manifest[range.upperBound...].prefix { $0 != "\n" }
        }
        let completions = try #require(Int(try value(after: "completions: ")))
        // The count the pods get must be the Job's completions: Kubernetes passes none itself.
        let count = try value(after: "- name: VISAGE_SHARD_COUNT\n              value: ")
        #expect(count == "\"\(completions)\"")
        // The container's arguments, a JSON-compatible flow list, pointed at this test's folder.
        let argsStart = try #require(manifest.range(of: "args: ["))
        let argsText = "[" + manifest[argsStart.upperBound...].prefix { $0 != "]" } + "]"
        let arguments = try #require(try JSONSerialization.jsonObject(with: Data(argsText.utf8)) as? [String]).map {
            $0.replacingOccurrences(of: "/data/", with: folder.url.path + "/")
        }
        #expect(arguments.contains("--shard") && arguments.contains("auto"))
        for index in 0..<completions {
            let pod = try PipedChild.run(
                arguments, in: folder.url,
                environment: ["JOB_COMPLETION_INDEX": "\(index)", "VISAGE_SHARD_COUNT": String(count.dropFirst().dropLast())])
            #expect(pod.status == 0, "\(pod.stderr)")
            #expect(pod.stderr.hasPrefix("visage: shard \(index) of \(completions) from JOB_COMPLETION_INDEX\n"))
        }
        #expect(try Self.results(folder.url.appendingPathComponent("results")) == Self.reference(paths, in: folder))
    }
}
