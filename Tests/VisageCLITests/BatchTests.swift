import Foundation
import Testing
import Visage

/// Many images through the built binary: order, lists on a pipe, error records, shards (by flag and by
/// the array jobs' environment), `--output` files and resuming. Mostly `visage contours`, which needs
/// no model, so the debug build stays quick; `visage detect` where its records matter.
@Suite(.serialized)
struct BatchTests {
    /// A temporary folder of images: copies of the samples under varied names, a subfolder, and
    /// whatever a test adds.
    struct Folder {
        let url: URL
        var path: String { url.path }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("visage-batch-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        func add(_ name: String, from sample: String) throws {
            let target = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent("Samples/\(sample)"), to: target)
        }

        func write(_ name: String, _ data: Data) throws {
            try data.write(to: url.appendingPathComponent(name))
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static let samples = ["coins.png", "horse.png", "astronaut.png"]

    /// `count` images named `img-00.png` …, cycling through samples of different sizes so that they
    /// finish out of order on several jobs.
    static func folder(count: Int) throws -> Folder {
        let folder = try Folder()
        do {
            for index in 0..<count {
                try folder.add(String(format: "img-%02d.png", index), from: samples[index % samples.count])
            }
        } catch {
            folder.remove()
            throw error
        }
        return folder
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    static func images(_ result: CLIRunner.Result) throws -> [String] {
        try lines(result.stdout).map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["image"] as? String)
        }
    }

    // MARK: Order and collections

    @Test func resultsKeepTheInputOrderOnSeveralJobs() throws {
        let folder = try Self.folder(count: 9)
        defer { folder.remove() }
        let expected = (0..<9).map { String(format: "img-%02d.png", $0) }
        let ordered = try CLIRunner.run(["contours", "--json", "--jobs", "3", "."], in: folder.url)
        #expect(ordered.status == 0, "\(ordered.stderr)")
        #expect(try Self.images(ordered) == expected.map { "./" + $0 })
        let unordered = try CLIRunner.run(["contours", "--json", "--jobs", "3", "--unordered", "."], in: folder.url)
        #expect(unordered.status == 0)
        #expect(try Self.images(unordered).sorted() == expected.map { "./" + $0 })
        // Several jobs give byte for byte what one job gives.
        let single = try CLIRunner.run(["contours", "--json", "--jobs", "1", "."], in: folder.url)
        #expect(single.stdout == ordered.stdout)
    }

    @Test func recursiveFindsNestedImagesAndAListGivesTheSameRecords() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.add("photos/a.png", from: "coins.png")
        try folder.add("photos/2024/b.png", from: "horse.png")
        try folder.add("photos/2024/deep/c.png", from: "coins.png")
        try folder.write("photos/notes.txt", Data("not an image".utf8))
        let flat = try CLIRunner.run(["contours", "--json", "photos"], in: folder.url)
        #expect(try Self.images(flat) == ["photos/a.png"])
        let recursive = try CLIRunner.run(["contours", "--json", "--recursive", "photos/"], in: folder.url)
        #expect(recursive.status == 0)
        #expect(try Self.images(recursive) == ["photos/2024/b.png", "photos/2024/deep/c.png", "photos/a.png"])
        // What `find photos -name '*.png' | sort` gives, read as a list: identical records.
        try folder.write("list.txt", Data("photos/2024/b.png\nphotos/2024/deep/c.png\nphotos/a.png\n".utf8))
        let listed = try CLIRunner.run(["contours", "--json", "--files-from", "list.txt"], in: folder.url)
        #expect(listed.status == 0 && listed.stdout == recursive.stdout)
    }

    // MARK: Lists on a pipe

    /// Spark's `RDD.pipe` contract: the first result arrives while stdin is still open; one line per
    /// input line, in order, `image` exactly as given, a failed image as an error record, exit 0.
    @Test func filesFromStdinAnswersEachLineAsItArrives() throws {
        let folder = try Self.folder(count: 3)
        defer { folder.remove() }
        try folder.write("broken.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]) + Data("JFIF".utf8))
        let child = try PipedChild(["detect", "--json", "--files-from", "-"], in: folder.url)
        try child.send("img-02.png\n")
        let first = try #require(child.readLine(timeout: 120), "no line before stdin was closed")
        let record = try JSONDecoder().decode(FacesRecord.self, from: Data(first.utf8))
        #expect(record.image == "img-02.png" && record.faces.count == 1 && record.width == 512)
        try child.send("./img-00.png\nbroken.jpg\nmissing.jpg\n\nimg-02.png\r\n")
        child.closeInput()
        let rest = try #require(child.readToEnd(timeout: 120))
        #expect(child.status == 0)
        let lines = Self.lines(rest)
        try #require(lines.count == 5, "\(rest)")
        #expect(try JSONDecoder().decode(FacesRecord.self, from: Data(lines[0].utf8)).image == "./img-00.png")
        let errors = try lines[1...3].map { try JSONDecoder().decode(ImageErrorRecord.self, from: Data($0.utf8)) }
        #expect(errors.map(\.image) == ["broken.jpg", "missing.jpg", ""])
        #expect(errors.map(\.error.code) == [.truncatedImage, .unreadableFile, .unreadableFile])
        #expect(try JSONDecoder().decode(FacesRecord.self, from: Data(lines[4].utf8)) == record)
    }

    /// A list several times longer than the lister's window (it fills, sleeps until the writer is half
    /// way back, refills): one record per line, in order, on one job and on several.
    @Test(arguments: [1, 3])
    func aListLongerThanTheWindowKeepsEveryLineInOrder(jobs: Int) throws {
        let folder = try Self.folder(count: 2)
        defer { folder.remove() }
        // Mostly missing files (quick error records), an image every seventh line.
        let names = (0..<75).map { $0 % 7 == 3 ? "img-0\($0 % 2).png" : "missing-\($0).png" }
        try folder.write("list.txt", Data(names.map { $0 + "\n" }.joined().utf8))
        let result = try CLIRunner.run(["contours", "--json", "--jobs", "\(jobs)", "--files-from", "list.txt"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.images(result) == names)
        let errors = Self.lines(result.stdout).filter { $0.contains("\"error\"") }
        #expect(errors.count == names.filter { $0.hasPrefix("missing") }.count)
    }

    // MARK: Errors

    @Test func onErrorRecordCarriesOnAndFailExitsOne() throws {
        let folder = try Self.folder(count: 1)
        defer { folder.remove() }
        try folder.write("text.png", Data("not an image".utf8))
        let record = try CLIRunner.run(["contours", "--json", "--on-error", "record", "text.png", "img-00.png"], in: folder.url)
        #expect(record.status == 0)
        let lines = Self.lines(record.stdout)
        try #require(lines.count == 2)
        let error = try JSONDecoder().decode(ImageErrorRecord.self, from: Data(lines[0].utf8))
        #expect(error.image == "text.png" && error.error.code == .unsupportedFormat)
        #expect(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? NSDictionary
            == ["image": "text.png", "error": ["code": "unsupported_format", "message": error.error.message]])
        // Text output gets one line per failed image too.
        let text = try CLIRunner.run(["contours", "--on-error", "record", "text.png"], in: folder.url)
        #expect(text.status == 0 && text.stdout.hasPrefix("text.png: error unsupported_format: "))
        // fail: today's behaviour, the other images still analysed.
        let fail = try CLIRunner.run(["contours", "--json", "text.png", "img-00.png"], in: folder.url)
        #expect(fail.status == 1 && Self.lines(fail.stdout).count == 1)
        #expect(fail.stderr.hasPrefix("visage: text.png: ") && fail.stderr.hasSuffix("visage: 1 of 2 files failed\n"))
    }

    @Test func usageErrorsOfTheBatchOptionsExitTwo() throws {
        let cases: [([String], String)] = [
            (["--jobs", "0", "x.png"], "--jobs 0 must be between 1 and 1024"),
            (["--skip-existing", "x.png"], "--skip-existing needs --output DIR"),
            (["--shard-index", "3", "--shard-count", "3", "x.png"], "--shard-index 3 must be in 0…2"),
            (["--shard-index", "1", "x.png"], "--shard-index needs --shard-count"),
            (["--shard", "2/4", "x.png"], "the only value is auto"),
            (["--files-from", "no-such-list.txt"], "--files-from no-such-list.txt: No such file or directory"),
        ]
        for (arguments, message) in cases {
            let result = try CLIRunner.run(["contours"] + arguments)
            #expect(result.status == 2 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    // MARK: Shards

    /// The test's own FNV-1a, checked against the published vectors.
    static func fnv1a64(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    @Test func shardsAreDisjointCoverEverythingAndFollowFNV1a() throws {
        #expect(Self.fnv1a64("") == 0xcbf2_9ce4_8422_2325 && Self.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        let folder = try Self.folder(count: 12)
        defer { folder.remove() }
        let all = try Self.images(try CLIRunner.run(["contours", "--json", "--max-dimension", "64", "."], in: folder.url))
        #expect(all.count == 12)
        var seen: [String] = []
        for index in 0..<3 {
            let result = try CLIRunner.run(
                ["contours", "--json", "--max-dimension", "64", "--shard-index", "\(index)", "--shard-count", "3", "."], in: folder.url)
            #expect(result.status == 0)
            let shard = try Self.images(result)
            #expect(shard == all.filter { Self.fnv1a64($0) % 3 == UInt64(index) })
            seen += shard
        }
        #expect(seen.sorted() == all.sorted())
    }

    /// The variables each engine sets pick the same shard as the flags, and stderr says which was used.
    @Test(arguments: [
        (["SLURM_ARRAY_TASK_ID": "6", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "3"],
         [String](), 2, "SLURM_ARRAY_TASK_ID"),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "3"], [], 1, "AWS_BATCH_JOB_ARRAY_INDEX"),
        (["JOB_COMPLETION_INDEX": "0"], ["--shard-count", "3"], 0, "JOB_COMPLETION_INDEX"),
        (["JOB_COMPLETION_INDEX": "2", "VISAGE_SHARD_COUNT": "3"], [], 2, "JOB_COMPLETION_INDEX"),
        (["VISAGE_SHARD_INDEX": "1", "VISAGE_SHARD_COUNT": "3", "SLURM_ARRAY_TASK_ID": "0"], [], 1, "VISAGE_SHARD_INDEX"),
    ])
    func shardAutoReadsTheEngineEnvironment(environment: [String: String], flags: [String], index: Int, source: String) throws {
        let folder = try Self.folder(count: 12)
        defer { folder.remove() }
        let common = ["contours", "--json", "--max-dimension", "64", "."]
        let byFlag = try CLIRunner.run(common + ["--shard-index", "\(index)", "--shard-count", "3"], in: folder.url)
        let byEnvironment = try PipedChild.run(common + ["--shard", "auto"] + flags, in: folder.url, environment: environment)
        #expect(byEnvironment.status == 0, "\(byEnvironment.stderr)")
        #expect(byEnvironment.stdout == byFlag.stdout)
        #expect(byEnvironment.stderr == "visage: shard \(index) of 3 from \(source)\n")
    }

    @Test func shardAutoWithoutAUsableEnvironmentIsAUsageError() throws {
        let cases: [([String: String], String)] = [
            ([:], "--shard auto found no array-job index"),
            (["JOB_COMPLETION_INDEX": "1"], "Kubernetes gives no count"),
            (["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "4"],
             "is not MIN 0 plus a multiple of STEP 2"),
            (["AWS_BATCH_JOB_ARRAY_INDEX": "5", "AWS_BATCH_JOB_ARRAY_SIZE": "5"], "--shard-index 5 must be in 0…4"),
        ]
        for (environment, message) in cases {
            let result = try PipedChild.run(["contours", "--shard", "auto", "Samples/coins.png"], in: CLIRunner.packageRoot, environment: environment)
            #expect(result.status == 2 && result.stderr.contains(message), "\(environment): \(result.stderr)")
        }
    }

    // MARK: --output and resuming

    @Test func outputMirrorsTheTreeAndSkipExistingRedoesOnlyWhatIsMissing() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.add("photos/a.png", from: "coins.png")
        try folder.add("photos/sub/b.png", from: "horse.png")
        try folder.write("photos/bad.png", Data("not an image".utf8))
        let printed = try CLIRunner.run(["contours", "--json", "--recursive", "--on-error", "record", "photos"], in: folder.url)
        let run = try CLIRunner.run(["contours", "--recursive", "--output", "out", "--on-error", "record", "photos"], in: folder.url)
        #expect(run.status == 0)
        // stdout keeps only the error record; each result is its file, equal to the line --json prints.
        #expect(try Self.images(run) == ["photos/bad.png"])
        let lines = Self.lines(printed.stdout)
        let a = try String(contentsOf: folder.url.appendingPathComponent("out/photos/a.png.json"), encoding: .utf8)
        let b = try String(contentsOf: folder.url.appendingPathComponent("out/photos/sub/b.png.json"), encoding: .utf8)
        #expect([a, b] == [lines[0] + "\n", lines[2] + "\n"])
        #expect(try Self.tree(folder.url.appendingPathComponent("out")) == ["photos/a.png.json", "photos/sub/b.png.json"])

        // Resume: only the missing result is analysed again; finished files are left as they are.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("out/photos/a.png.json"))
        let bFile = folder.url.appendingPathComponent("out/photos/sub/b.png.json")
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: bFile.path)
        let resumed = try CLIRunner.run(
            ["contours", "--recursive", "--output", "out", "--skip-existing", "--on-error", "record", "photos"], in: folder.url)
        let resumedImages = try Self.images(resumed)
        #expect(resumed.status == 0 && resumedImages == ["photos/bad.png"])
        #expect(try String(contentsOf: folder.url.appendingPathComponent("out/photos/a.png.json"), encoding: .utf8) == a)
        #expect(try FileManager.default.attributesOfItem(atPath: bFile.path)[.modificationDate] as? Date == old)
    }

    /// A run killed mid-way leaves only complete results (and at most hidden temporary files); a rerun
    /// with --skip-existing completes the same tree a clean run writes.
    @Test func killedOutputRunResumesToTheSameFiles() throws {
        let folder = try Self.folder(count: 30)
        defer { folder.remove() }
        let names = (0..<30).map { String(format: "img-%02d.png", $0) }
        let clean = try CLIRunner.run(["contours", "--output", "clean", "--jobs", "2", "."], in: folder.url)
        #expect(clean.status == 0)
        // Feed the list slowly through stdin and kill the run once some results exist.
        let child = try PipedChild(["contours", "--output", "killed", "--jobs", "2", "--files-from", "-"], in: folder.url)
        try child.send(names.prefix(20).map { "./" + $0 + "\n" }.joined())
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, (try? Self.tree(folder.url.appendingPathComponent("killed")).count) ?? 0 < 3 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        child.kill()
        let killed = folder.url.appendingPathComponent("killed")
        let partial = try Self.tree(killed)
        #expect(partial.count >= 3 && partial.count < 30)
        for name in partial {
            let data = try Data(contentsOf: killed.appendingPathComponent(name))
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(name) is not a complete result")
        }
        // What the kill leaves mid-write (the window is too short to hit on purpose): a temporary file of an
        // unfinished image, named by this machine and the dead PID; beside it, one of a live process (this
        // test) and a recent one of another machine sharing the folder, which the rerun must keep.
        let unfinished = try #require(names.first { !partial.contains($0 + ".json") })
        let host = Self.hostName
        let stale = ".\(unfinished).json.tmp-\(host)-\(child.pid)-7", live = ".\(unfinished).json.tmp-\(host)-\(getpid())-7"
        let elsewhere = ".\(unfinished).json.tmp-other-\(host)-\(child.pid)-7"
        // And one another machine left two hours ago (a killed pod never returns under its name).
        let abandoned = ".\(unfinished).json.tmp-gone-\(host)-\(child.pid)-8"
        for name in [stale, live, elsewhere, abandoned] { try Data("{\"partial".utf8).write(to: killed.appendingPathComponent(name)) }
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: killed.appendingPathComponent(abandoned).path)
        let resumed = try CLIRunner.run(["contours", "--output", "killed", "--skip-existing", "--jobs", "2", "."], in: folder.url)
        #expect(resumed.status == 0)
        let hidden = try FileManager.default.contentsOfDirectory(atPath: killed.path).filter { $0.hasPrefix(".") }
        #expect(hidden.sorted() == [live, elsewhere].sorted(), "temporary files left: \(hidden)")
        let cleanTree = try Self.tree(folder.url.appendingPathComponent("clean"))
        #expect(try Self.tree(killed) == cleanTree && cleanTree.count == 30)
        for name in cleanTree {
            #expect(try Data(contentsOf: killed.appendingPathComponent(name)) == Data(contentsOf: folder.url.appendingPathComponent("clean/\(name)")))
        }
    }

    static var hostName: String {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count)
        return String(cString: name)
    }

    /// The visible files below `root`, relative and sorted (hidden temporary files left out).
    static func tree(_ root: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if !isDirectory.boolValue, !(path as NSString).lastPathComponent.hasPrefix(".") { files.append(path) }
        }
        return files.sorted()
    }
}

/// The built `visage` with stdin, stdout and stderr on pipes the test drives itself: lines sent and
/// read one at a time, an environment of the test's choosing, and killing.
final class PipedChild {
    private let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private var buffered = Data()

    init(_ arguments: [String], in directory: URL, environment: [String: String]? = nil, executable: URL = CLIRunner.executable) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Runs to the end with stdin closed and only `environment` (as PySpark's `pipe` does).
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String], executable: URL = CLIRunner.executable
    ) throws -> CLIRunner.Result {
        let child = try PipedChild(arguments, in: directory, environment: environment, executable: executable)
        child.closeInput()
        let stdout = child.output.fileHandleForReading.readDataToEndOfFile()
        let stderr = child.errors.fileHandleForReading.readDataToEndOfFile()
        child.process.waitUntilExit()
        return .init(status: child.process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                     stderr: String(decoding: stderr, as: UTF8.self))
    }

    func send(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// The next line of stdout, without waiting longer than `timeout` seconds for it.
    func readLine(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let line = buffered[..<newline]
                buffered = Data(buffered[(newline + 1)...])
                return String(decoding: line, as: UTF8.self)
            }
            let descriptor = output.fileHandleForReading.fileDescriptor
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { return nil }
            if poller.revents != 0 {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return nil }
                buffered += chunk
            }
        }
        return nil
    }

    /// Everything left on stdout once the child exits.
    func readToEnd(timeout: TimeInterval) -> String? {
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: buffered + rest, as: UTF8.self)
    }

    var status: Int32 { process.terminationStatus }
    var pid: pid_t { process.processIdentifier }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill() }
    }
}
