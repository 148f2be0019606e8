import ArgumentParser
import Foundation
import VisageModels
import VisageNN

/// `visage benchmark`: latency of every bundled network on Visage's engine, and the arena it plans.
///
/// ```
/// $ swift run -c release visage benchmark --threads 1 --runs 200
/// model                               median ms    p90 ms   load ms
/// face_detection_short_range.tflite        1.37      1.52       3.1
/// ...
/// face_landmarks_detector.tflite: arena 3.0 MiB (1.00× the peak of live activations, ...)
/// ```
/// `Scripts/benchmark-reference.py` runs this with `--json` beside LiteRT/XNNPACK and prints the ratios.
/// `--fuzz N` instead loads N mutants of the models (the model reader's robustness check).
struct BenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark",
        abstract: "Time every bundled model on Visage's engine (median and p90); build with -c release.",
        discussion: "Random input, a few warm-up runs, then --runs timed invocations per model. "
            + "--fuzz N runs the model-reader fuzzer for N mutants instead.")

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "Threads per operator (1...64); default: chosen per model, as many as its layers are large enough to share, up to the cores this process may use.")
    var threads: Int?

    @Option(help: "Timed runs per model (1...100000).")
    var runs = 200

    @Flag(help: "Also print the time per kind of operation (one profiled run per model, after the timed ones).")
    var profile = false

    @Flag(help: "Also print every operation's time, multiply-accumulates and GMAC/s (median of 20 profiled runs).")
    var layers = false

    @Option(help: "Instead of timing, load this many mutated models and report how they were rejected.")
    var fuzz: Int?

    @Option(help: ArgumentHelp(
        "Give the image networks a letterbox input: a random picture of this aspect ratio (W:H, e.g. 4:3) centred in the square input, one value around it.",
        valueName: "W:H"))
    var letterbox: String?

    @Flag(help: "Compute every pixel of the runs of pixels known to come out equal (a letterbox's bands) instead of one per run, to time what skipping them saves.")
    var computeUniformRuns = false

    static let networks: [BundledModel] = [.faceDetectorShortRange, .faceDetectorFullRange, .faceMesh, .faceBlendshapes]

    struct Result: Codable {
        var model: String
        /// The interpreter's threads: `--threads`, or the count it chose for the model.
        var threads: Int
        /// Reading, checking and planning the model (`Model(data:)`), once.
        var loadMilliseconds: Double
        var medianMilliseconds: Double
        var p90Milliseconds: Double
        /// The fastest run: on a loaded machine, the one least disturbed by other work.
        var fastestMilliseconds: Double
        /// The process's CPU time in the run that used the least: at one thread, the run's own
        /// compute without the time other work took the core away (at more, every thread's sum).
        var fastestCPUMilliseconds: Double
        var arenaBytes: Int
        var peakLiveActivationBytes: Int
        var activationBytes: Int
        var weightBytes: Int
    }

    struct Report: Codable {
        /// `--threads`, nil when each model chose its own.
        var threads: Int?
        var runs: Int
        var results: [Result]
    }

    func validate() throws {
        if let threads, !(1 ... 64).contains(threads) { throw ValidationError("--threads must be between 1 and 64, got \(threads)") }
        guard (1 ... 100_000).contains(runs) else { throw ValidationError("--runs must be between 1 and 100000, got \(runs)") }
        if let fuzz, fuzz < 1 { throw ValidationError("--fuzz must be positive, got \(fuzz)") }
        if letterbox != nil, aspect == nil { throw ValidationError("--letterbox takes W:H with positive integers, e.g. 4:3") }
    }

    /// `--letterbox`'s width and height.
    private var aspect: (width: Int, height: Int)? {
        guard let parts = letterbox?.split(separator: ":"), parts.count == 2,
              let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0, width <= 1000, height <= 1000
        else { return nil }
        return (width, height)
    }

    func run() async throws {
        if let fuzz {
            let seeds = try Self.networks.map { try $0.load() }
            let start = ContinuousClock.now
            let summary = ModelFuzzer.run(seeds: seeds, iterations: fuzz, seed: 0x5EED, invokeLimit: 1_000_000)
            print("\(summary) in \(ContinuousClock.now - start)")
            return
        }
        var results: [Result] = []
        for network in Self.networks {
            let data = try network.load()
            let loadStart = Stopwatch.wallMilliseconds()
            let model = try Model(data: data)
            let loadMilliseconds = Stopwatch.wallMilliseconds() - loadStart
            var options = InterpreterOptions(threads: threads)
            options.skipsUniformColumns = !computeUniformRuns
            let interpreter = try Interpreter(model: model, options: options)
            var state: UInt32 = 12345
            for index in model.inputs.indices {
                let shape = model.inputs[index].shape
                interpreter.withInput(index) { buffer in
                    for position in buffer.indices {
                        state = state &* 1_664_525 &+ 1_013_904_223
                        buffer[position] = Float(state >> 8) / Float(1 << 24)
                    }
                    // A square NHWC image input: one value outside the centred picture.
                    guard let aspect, shape.count == 4, shape[1] == shape[2] else { return }
                    let side = shape[1], channels = shape[3]
                    let rows = min(side, side * aspect.height / aspect.width), columns = min(side, side * aspect.width / aspect.height)
                    let top = (side - rows) / 2, left = (side - columns) / 2
                    for y in 0 ..< side {
                        for x in 0 ..< side where !(top ..< top + rows).contains(y) || !(left ..< left + columns).contains(x) {
                            for c in 0 ..< channels { buffer[(y * side + x) * channels + c] = -1 }
                        }
                    }
                }
            }
            for _ in 0 ..< min(10, runs) { try interpreter.invoke() }
            let (times, cpuTimes) = try Stopwatch.measure(runs: runs) { try interpreter.invoke() }
            if profile, !json {
                var totals: [String: Double] = [:]
                for _ in 0 ..< 20 {
                    for (operation, seconds) in interpreter.invokeProfiled() { totals[operation, default: 0] += seconds / 20 }
                }
                let breakdown = totals.sorted { $0.value > $1.value }
                    .map { "\($0.key) \(String(format: "%.3f", $0.value * 1e3)) ms" }.joined(separator: ", ")
                print("\(network.fileName): \(breakdown)")
            }
            if layers, !json {
                let profiles = (0 ..< 21).map { _ in interpreter.invokeProfiledPerOperation() }
                print("\(network.fileName), per operation (median of \(profiles.count) runs):")
                for (index, operation) in profiles[0].enumerated() {
                    let seconds = profiles.map { $0[index].seconds }.sorted()[profiles.count / 2]
                    let rate = operation.multiplyAccumulates > 0
                        ? String(format: "%8.1f GMAC/s", Double(operation.multiplyAccumulates) / seconds / 1e9) : ""
                    print(String(format: "  %3d  %8.1f µs  %9.3f MMAC", index, seconds * 1e6, Double(operation.multiplyAccumulates) / 1e6)
                        + rate + "  " + operation.summary)
                }
            }
            let memory = model.memoryReport
            results.append(Result(
                model: network.fileName, threads: interpreter.threads, loadMilliseconds: loadMilliseconds, medianMilliseconds: Stopwatch.percentile(times, 0.5),
                p90Milliseconds: Stopwatch.percentile(times, 0.9), fastestMilliseconds: times.min() ?? 0,
                fastestCPUMilliseconds: cpuTimes.min() ?? 0,
                arenaBytes: memory.arenaBytes, peakLiveActivationBytes: memory.peakLiveActivationBytes,
                activationBytes: memory.activationBytes, weightBytes: memory.weightBytes))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(Report(threads: threads, runs: runs, results: results)), as: UTF8.self))
            return
        }
        print("model".padding(toLength: 36, withPad: " ", startingAt: 0) + pad("threads") + pad("median ms") + pad("p90 ms") + pad("load ms"))
        for result in results {
            print(result.model.padding(toLength: 36, withPad: " ", startingAt: 0) + pad("\(result.threads)")
                + pad(String(format: "%.3f", result.medianMilliseconds)) + pad(String(format: "%.3f", result.p90Milliseconds))
                + pad(String(format: "%.1f", result.loadMilliseconds)))
        }
        let mesh = try Model(data: try BundledModel.faceMesh.load())
        print("\(BundledModel.faceMesh.fileName): \(mesh.memoryReport)")
    }

    private func pad(_ text: String) -> String {
        String(repeating: " ", count: max(0, 12 - text.count)) + text
    }
}
