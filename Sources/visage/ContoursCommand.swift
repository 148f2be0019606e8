import ArgumentParser
import Foundation
import Visage

/// `visage contours`: Vision-style contour detection, contour art, and its benchmark.
struct ContoursCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contours",
        abstract: "Find the contours of shapes and holes in an image, or draw contour art.",
        discussion: """
            Gray → contrast around the pivot → threshold at mid-gray → border following with the \
            full hierarchy. Points are normalized, origin at the lower left, as in Vision.

              $ visage contours Samples/coins.png
              Samples/coins.png (384×303 → 384×303): 707 contours, 12 top level
              $ visage contours Samples/coins.png --contrast-pivot auto --epsilon 0.002 --json
              $ visage contours Samples/horse.png --svg horse.svg --png horse.png --overlay
              $ visage contours Samples/camera.png --art --pivot-range 0.2...0.7 --adjust-range 0.5...3 --iou 0.9 --svg art.svg
              $ visage contours --benchmark 50 masks/   # median ms; build with -c release
              $ visage contours --json --recursive masks/ --jobs 2
              $ find masks -name '*.png' | visage contours --json --files-from -

            Many images take the same options as visage detect (--jobs, --files-from, --output, \
            --shard-index …): results in input order, a failed image as an error record under \
            --on-error record. Exit status: 0 ran, 1 an image failed under --on-error fail, 2 usage.
            """)

    @Argument(help: "Image files or folders (\(ImageFileFormat.allCommonNames)); one image with --svg or --png.")
    var images: [String] = []

    @OptionGroup(title: "Many images")
    var batch: BatchOptions

    @Option(parsing: .unconditional, help: "How strongly to stretch gray values away from the pivot, 0…3.")
    var contrastAdjustment: Float = 2

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The gray value (0…1) the contrast stretches from, or auto to choose it from the histogram (Otsu).",
        valueName: "P|auto"))
    var contrastPivot = "0.5"

    @Flag(help: "Find light shapes on a dark background (default: dark on light).")
    var lightOnDark = false

    @Option(help: "Downscale so the longer side is at most N pixels (at least 64) before tracing.")
    var maxDimension = 512

    @Option(parsing: .unconditional, help: "Simplify each contour by Ramer–Douglas–Peucker with this tolerance (normalized units); with --art, 0.002 by default.")
    var epsilon: Float?

    @Flag(help: "Print the contours as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Draw the contours into an SVG file.", valueName: "OUT.svg"))
    var svg: String?

    @Option(help: ArgumentHelp("Draw the contours into a PNG file.", valueName: "OUT.png"))
    var png: String?

    @Flag(help: "Draw over the image instead of a blank white canvas.")
    var overlay = false

    @Flag(help: "Contour art: sweep pivot and adjustment, merge near-copies, simplify.")
    var art = false

    @Option(help: ArgumentHelp("Art: the pivots swept.", valueName: "LOW...HIGH"))
    var pivotRange = "0.2...0.7"

    @Option(help: ArgumentHelp("Art: the contrast adjustments swept.", valueName: "LOW...HIGH"))
    var adjustRange = "0.5...3"

    @Option(help: "Art: settings per range (1…32); the sweep runs steps × steps requests.")
    var steps = 6

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Art: drop contours shorter than this, as a fraction of the image's longer side (0 keeps all).", valueName: "FRACTION"))
    var minLength = 0.02

    @Option(parsing: .unconditional, help: "Art: contours overlapping with at least this IoU (0 < IoU ≤ 1) count as one.")
    var iou = 0.9

    @Option(help: ArgumentHelp(
        "Instead of reporting contours, time N runs per image and print median milliseconds: decoding, the "
            + "whole request, and border following alone on the full-size image read as binary "
            + "(nonzero = foreground, as OpenCV's findContours). Build with -c release.",
        valueName: "N"))
    var benchmark: Int?

    func validate() throws {
        if images.isEmpty, batch.filesFrom == nil {
            throw ValidationError("Missing expected argument '<images> ...' (or --files-from FILE|-)")
        }
        if let benchmark {
            guard (1 ... 100_000).contains(benchmark) else {
                throw ValidationError("--benchmark \(benchmark) must be between 1 and 100000")
            }
        } else if svg != nil || png != nil, images.count != 1 || batch.filesFrom != nil
            || ImageInputs.Walk.isFolder(images[0], followingLinks: true)
        {
            throw ValidationError("--svg and --png draw one image: give exactly one image file (got \(images.count))")
        }
        _ = try request()
        if art {
            guard svg != nil || png != nil || json else {
                throw ValidationError("--art needs an output: --svg OUT.svg, --png OUT.png or --json")
            }
            _ = try artSettings().requests()
        }
        for (option, path, suffix) in [("--svg", svg, "svg"), ("--png", png, "png")] {
            if let path, (path as NSString).pathExtension.lowercased() != suffix {
                throw ValidationError("\(option) \(path) must end in .\(suffix)")
            }
        }
    }

    func request() throws -> DetectContoursRequest {
        var request = DetectContoursRequest()
        request.contrastAdjustment = contrastAdjustment
        if contrastPivot == "auto" {
            request.contrastPivot = nil
        } else {
            guard let pivot = Float(contrastPivot) else {
                throw ValidationError("--contrast-pivot \(contrastPivot) must be a number in 0…1 or auto")
            }
            request.contrastPivot = pivot
        }
        request.detectsDarkOnLight = !lightOnDark
        request.maximumImageDimension = maxDimension
        if let epsilon, !(epsilon.isFinite && epsilon >= 0) {
            throw ValidationError("--epsilon \(epsilon) must be a finite number ≥ 0")
        }
        do {
            try request.validate()
        } catch {
            throw ValidationError(Self.optionMessage(error))
        }
        return request
    }

    func artSettings() throws -> ContourArt {
        func range(_ text: String, _ option: String) throws -> ClosedRange<Float> {
            let parts = text.components(separatedBy: "...")
            guard parts.count == 2, let low = Float(parts[0]), let high = Float(parts[1]), low <= high else {
                throw ValidationError("\(option) \(text) must be LOW...HIGH with LOW ≤ HIGH, such as 0.2...0.7")
            }
            return low ... high
        }
        let art = ContourArt(
            pivotRange: try range(pivotRange, "--pivot-range"), adjustmentRange: try range(adjustRange, "--adjust-range"),
            steps: steps, iouThreshold: iou, epsilon: epsilon ?? 0.002, minimumLength: minLength, detectsDarkOnLight: !lightOnDark,
            maximumImageDimension: maxDimension)
        do {
            _ = try art.requests()
        } catch {
            throw ValidationError(Self.optionMessage(error))
        }
        return art
    }

    /// A parameter error in the words of the command line.
    private static func optionMessage(_ error: ContoursError) -> String {
        guard case .invalidParameter(let name, let value, let rule) = error else { return error.description }
        let option = [
            "contrastAdjustment": "--contrast-adjustment", "contrastPivot": "--contrast-pivot",
            "maximumImageDimension": "--max-dimension", "steps": "--steps", "iouThreshold": "--iou",
            "epsilon": "--epsilon", "minimumLength": "--min-length",
        ][name] ?? name
        let shown = name == "contrastPivot" ? "\(rule.replacingOccurrences(of: "or nil for automatic", with: "or auto"))" : rule
        return "\(option) \(value) \(shown)"
    }

    func run() async throws {
        let request = try request()
        let art = art ? try artSettings() : nil
        let (benchmark, epsilon, maxDimension, drawing) = (benchmark, epsilon, maxDimension, Drawing(svg: svg, png: png, overlay: overlay))
        let json = json || batch.output != nil
        let pipeline = try BatchPipeline(options: batch, json: json, jobs: benchmark != nil ? 1 : nil) { name in
            let url = URL(fileURLWithPath: name)
            if let benchmark {
                return Data(try Self.time(url: url, name: name, runs: benchmark, request: request, json: json).utf8)
            }
            let image = try Image(contentsOf: url)
            if let art {
                let contours = try art.contours(for: image)
                try drawing.write(contours, image: image)
                if json { return try JSONOutput.encodedLine(ContoursRecord(image: name, contours: contours, topLevel: nil)) }
                return Data("\(name): \(contours.count) contours of art\n".utf8)
            }
            let observation = try request.performSynchronously(on: image)
            var contours = observation.contours
            if let epsilon { contours = try contours.map { try $0.polygonApproximation(epsilon: epsilon) } }
            try drawing.write(contours, image: image)
            if json {
                return try JSONOutput.encodedLine(ContoursRecord(image: name, contours: contours, topLevel: observation.topLevelContourCount))
            }
            let size = image.size
            let scale = Double(maxDimension) / Double(max(size.width, size.height))
            let working = scale < 1
                ? "\(max(1, Int((size.width * scale).rounded())))×\(max(1, Int((size.height * scale).rounded())))"
                : "\(Int(size.width))×\(Int(size.height))"
            return Data(("\(name) (\(Int(size.width))×\(Int(size.height)) → \(working)): "
                + "\(observation.contourCount) contours, \(observation.topLevelContourCount) top level\n").utf8)
        }
        try await pipeline.run(paths: images)
    }

    /// Where --svg and --png draw, and on what.
    struct Drawing: Sendable {
        var svg, png: String?
        var overlay: Bool

        func write(_ contours: [Contour], image: Image) throws {
            let width = Int(image.size.width), height = Int(image.size.height)
            if let svg {
                let text = try ContourRenderer.svg(contours, width: width, height: height, background: overlay ? image : nil)
                try Data(text.utf8).write(to: URL(fileURLWithPath: svg))
            }
            if let png {
                let data = overlay
                    ? try ContourRenderer.png(contours, over: image)
                    : try ContourRenderer.png(contours, width: width, height: height)
                try data.write(to: URL(fileURLWithPath: png))
            }
        }
    }

    struct Timing: Encodable {
        var image: String
        var width: Int
        var height: Int
        var runs: Int
        var contourCount: Int
        var borderCount: Int
        var decodeMilliseconds: Double
        var requestMilliseconds: Double
        var borderFollowingMilliseconds: Double
    }

    /// Median times of `runs` decodes, requests and border followings of one image.
    private static func time(url: URL, name: String, runs: Int, request: DetectContoursRequest, json: Bool) throws -> String {
        let data = try Data(contentsOf: url)
        func median(_ body: () throws -> Void) rethrows -> Double {
            Stopwatch.percentile(try Stopwatch.measure(runs: runs, body).wall, 0.5)
        }
        var image = try Image(data: data)
        let decode = try median { image = try Image(data: data) }
        var contourCount = 0
        let whole = try median { contourCount = try request.performSynchronously(on: image).contourCount }
        let gray = image.converted(to: .gray8)
        let mask = BinaryMask(width: gray.width, height: gray.height, pixels: gray.packedPixels)
        var borderCount = 0
        let following = median { borderCount = BorderFollowing.traceBorders(in: mask).count }
        let timing = Timing(
            image: name, width: image.width, height: image.height, runs: runs, contourCount: contourCount,
            borderCount: borderCount, decodeMilliseconds: decode, requestMilliseconds: whole,
            borderFollowingMilliseconds: following)
        if json { return String(decoding: try JSONOutput.encodedLine(timing), as: UTF8.self) }
        func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
        return "\(name) (\(image.width)×\(image.height)): decode \(ms(decode)), request \(ms(whole)) "
            + "(\(contourCount) contours), border following \(ms(following)) (\(borderCount) borders), median of \(runs)\n"
    }
}
