import ArgumentParser
import Foundation
import Visage

/// `visage detect`: the faces in each image, as a summary, JSON Lines, or drawn over the image.
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find faces: boxes, confidence, head angles and six keypoints.",
        discussion: """
            Folders are expanded to the images directly inside them. Coordinates are in the upright
            picture (EXIF orientation applied); angles are in degrees with ML Kit's signs.

              $ visage detect Samples/astronaut.png
              Samples/astronaut.png (512×512): 1 face found
                face 1: x 177, y 82, 95×95 px, confidence 0.92, roll 5.3°, yaw -7.0°, pitch 1.2°
              $ visage detect --json --mode accurate --min-face-size 0.02 photos/
              $ visage detect group.jpg --annotate group-faces.png
            """)

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case fast
        case accurate
    }

    @Argument(help: "Image files or folders (JPEG, PNG, PPM/PGM).")
    var images: [String]

    @Option(help: "fast: MediaPipe's short-range detector; accurate: full-range detector with tiles for small faces.")
    var mode: Mode = .fast

    @Option(help: "Smallest face to report, as a fraction of the image width (0…1); in accurate mode also how finely to tile.")
    var minFaceSize: Double = 0.1

    @Flag(help: "Print one JSON object per image (JSON Lines).")
    var json = false

    @Option(help: ArgumentHelp(
        "Write the image with the faces drawn in (teal boxes and keypoints), as PNG or SVG by the extension.",
        discussion: "With several images, each is written to OUT with \"-<image name>\" added before the extension.",
        valueName: "OUT.png|OUT.svg"))
    var annotate: String?

    @Option(help: ArgumentHelp(
        "Instead of reporting faces, time N detections per image and print the median milliseconds, "
            + "decoding included and excluded (build with -c release).",
        valueName: "N"))
    var benchmark: Int?

    func validate() throws {
        if let benchmark, !(1...100_000).contains(benchmark) {
            throw ValidationError("--benchmark \(benchmark) must be between 1 and 100000")
        }
        guard minFaceSize.isFinite, (0...1).contains(minFaceSize) else {
            throw ValidationError("--min-face-size \(minFaceSize) must be a fraction of the image width in 0…1")
        }
        if let annotate, !["png", "svg"].contains((annotate as NSString).pathExtension.lowercased()) {
            throw ValidationError("--annotate \(annotate) must end in .png or .svg")
        }
    }

    struct Rect: Encodable {
        var x, y, width, height: Double
    }

    struct Point: Encodable {
        var x, y: Double
    }

    struct FaceRecord: Encodable {
        /// Pixels, origin top left.
        var frame: Rect
        /// Normalized, origin bottom left (Vision's convention).
        var boundingBox: Rect
        var confidence: Float
        var roll, yaw, pitch: Double
        /// Pixels, origin top left.
        var keypoints: [String: Point]
    }

    struct Record: Encodable {
        var image: String
        var width: Int
        var height: Int
        var faces: [FaceRecord]
    }

    func run() async throws {
        let detector = FaceDetector(options: .init(performanceMode: mode == .fast ? .fast : .accurate, minFaceSize: minFaceSize))
        let batch = Batch(paths: images)
        let several = batch.inputs.count > 1
        try await batch.run { url in
            if let benchmark {
                return try Self.time(detector, url: url, runs: benchmark, name: batch.displayName(url), json: json)
            }
            let image = try Image(contentsOf: url, options: .init(applyOrientation: false))
            let faces = try detector.process(image)
            let name = batch.displayName(url)
            let size = image.size
            if json {
                try JSONOutput.line(Record(
                    image: name, width: Int(size.width), height: Int(size.height),
                    faces: faces.map { Self.record($0, imageSize: size) }))
            } else {
                print(Self.summary(faces, name: name, size: size))
            }
            if let annotate {
                try Self.write(faces, on: image, to: several ? Self.path(annotate, for: url) : annotate)
            }
        }
    }

    struct Timing: Encodable {
        var image: String
        var runs: Int
        var faces: Int
        var detectMilliseconds: Double
        var decodeAndDetectMilliseconds: Double
        /// CPU time of the process, which other work on a busy machine does not inflate.
        var detectCPUMilliseconds: Double
        var decodeAndDetectCPUMilliseconds: Double
    }

    /// Median wall-clock and CPU times of `runs` detections on the decoded image, and of `runs`
    /// decode-and-detect passes from the file's bytes (read once, so disk speed is left out), after two
    /// warm-up runs.
    static func time(_ detector: FaceDetector, url: URL, runs: Int, name: String, json: Bool) throws {
        let data = try Data(contentsOf: url)
        let decode = { () throws -> Image in try Image(data: data, options: .init(applyOrientation: false)) }
        let image = try decode()
        var faces = 0
        func cpuMilliseconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) * 1e-6
        }
        func medians(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
            for _ in 0..<2 { try body() }
            var wall: [Double] = [], cpu: [Double] = []
            for _ in 0..<runs {
                let start = ContinuousClock.now
                let cpuStart = cpuMilliseconds()
                try body()
                cpu.append(cpuMilliseconds() - cpuStart)
                let elapsed = ContinuousClock.now - start
                wall.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15)
            }
            return (wall.sorted()[runs / 2], cpu.sorted()[runs / 2])
        }
        let detect = try medians { faces = try detector.process(image).count }
        let decodeAndDetect = try medians { _ = try detector.process(try decode()) }
        let timing = Timing(
            image: name, runs: runs, faces: faces, detectMilliseconds: detect.wall,
            decodeAndDetectMilliseconds: decodeAndDetect.wall, detectCPUMilliseconds: detect.cpu,
            decodeAndDetectCPUMilliseconds: decodeAndDetect.cpu)
        if json {
            try JSONOutput.line(timing)
        } else {
            let format = { (value: Double) in String(format: "%.3f", value) }
            print("\(name): \(faces) faces; detect \(format(detect.wall)) ms (CPU \(format(detect.cpu))), "
                + "decode and detect \(format(decodeAndDetect.wall)) ms (CPU \(format(decodeAndDetect.cpu))); medians of \(runs)")
        }
    }

    static func record(_ face: Face, imageSize: CGSize) -> FaceRecord {
        let frame = face.frame
        let box = NormalizedRect(imageRect: frame, in: imageSize, origin: .upperLeft)
        return FaceRecord(
            frame: Rect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height),
            boundingBox: Rect(x: box.minX, y: box.minY, width: box.width, height: box.height),
            confidence: face.confidence,
            roll: face.headEulerAngleZ, yaw: face.headEulerAngleY, pitch: face.headEulerAngleX,
            keypoints: Dictionary(uniqueKeysWithValues: face.keypoints.map { ($0.key.description, Point(x: $0.value.x, y: $0.value.y)) }))
    }

    static func summary(_ faces: [Face], name: String, size: CGSize) -> String {
        let count = faces.isEmpty ? "no faces found" : faces.count == 1 ? "1 face found" : "\(faces.count) faces found"
        var text = "\(name) (\(Int(size.width))×\(Int(size.height))): \(count)"
        for (index, face) in faces.enumerated() {
            let f = face.frame
            text += "\n  face \(index + 1): x \(Int(f.minX.rounded())), y \(Int(f.minY.rounded())), "
                + "\(Int(f.width.rounded()))×\(Int(f.height.rounded())) px, "
                + "confidence \(String(format: "%.2f", face.confidence)), "
                + "roll \(String(format: "%.1f", face.headEulerAngleZ))°, yaw \(String(format: "%.1f", face.headEulerAngleY))°, "
                + "pitch \(String(format: "%.1f", face.headEulerAngleX))°"
        }
        return text
    }

    /// `out` with the image's name added: `faces.png` + `a/b.jpg` → `faces-b.png`.
    static func path(_ out: String, for image: URL) -> String {
        let base = out as NSString
        let stem = image.deletingPathExtension().lastPathComponent
        return (base.deletingPathExtension + "-" + stem as NSString).appendingPathExtension(base.pathExtension) ?? out
    }

    static func write(_ faces: [Face], on image: Image, to path: String) throws {
        let data: Data
        if (path as NSString).pathExtension.lowercased() == "svg" {
            data = Data(try FaceAnnotation.svg(faces, on: image).utf8)
        } else {
            data = try FaceAnnotation.drawn(faces, on: image).pngData()
        }
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw AnnotationError(path: path)
        }
    }

    struct AnnotationError: Error, CustomStringConvertible {
        var path: String
        var description: String { "cannot write the annotated image to \(path): its folder must exist and be writable" }
    }
}
