import ArgumentParser
import Foundation
import Visage
import VisageNN

/// `visage detect`: the faces in each image, as a summary, JSON Lines, or drawn over the image.
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find faces: boxes, confidence, head angles, keypoints; landmarks, contours, mesh, expressions, quality.",
        discussion: """
            Folders are expanded to the images directly inside them (anywhere below with --recursive). \
            Coordinates are in the upright picture (EXIF orientation applied), pixels with the origin at the top left; angles are in \
            degrees with ML Kit's signs. Any of --landmarks, --contours, --classify, --quality and --mesh \
            runs the face mesh, whose fitted pose then gives the angles.

              $ visage detect Samples/astronaut.png
              Samples/astronaut.png (512×512): 1 face found
                face 1: x 178, y 83, 95×95 px, confidence 0.92, roll -5.4°, yaw -3.4°, pitch -2.9°
              $ visage detect --classify --quality Samples/astronaut.png
              Samples/astronaut.png (512×512): 1 face found
                face 1: x 178, y 83, 95×95 px, confidence 0.92, roll -3.5°, yaw 0.6°, pitch -14.9°
                  smiling 0.99, left eye open 0.98, right eye open 0.98
                  strongest blendshapes: mouthSmileRight 0.90, mouthSmileLeft 0.90, mouthUpperUpRight 0.47
                  capture quality 0.90
              $ visage detect --json --mode accurate --min-face-size 0.02 photos/
              $ visage detect group.jpg --landmarks --annotate group-faces.png

            Many images run --jobs at once (the core count by default); results keep the input order. \
            A list of paths, from a file or stdin, gives one line per path, flushed at once, whose \
            "image" is the path as given; a failed image gives {"image", "error": {"code", "message"}}:

              $ find photos -name '*.jpg' | visage detect --json --files-from -
              $ visage detect --recursive photos --output results --skip-existing
              $ visage detect --json --recursive photos --shard-index 3 --shard-count 8
              $ visage detect --files-from list.txt --shard auto --output results   # array jobs

            Exit status: 0 every image got a result or an error record; 1 an image failed under \
            --on-error fail (the default unless --files-from); 2 usage.
            """)

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case fast
        case accurate
    }

    @Argument(help: "Image files or folders (\(ImageFileFormat.allCommonNames)).")
    var images: [String] = []

    @OptionGroup(title: "Many images")
    var batch: BatchOptions

    @Option(help: "fast: MediaPipe's short-range detector; accurate: full-range detector with tiles for small faces.")
    var mode: Mode = .fast

    // .unconditional: a negative value is read as the value (and refused by range), not as an option.
    @Option(parsing: .unconditional, help: "Smallest face to report, as a fraction of the image width (0…1); in accurate mode also how finely to tile.")
    var minFaceSize: Double = 0.1

    @Flag(inversion: .prefixedNo, help: "Also look for faces turned by 90°, 180° and 270° (default: on in accurate mode, off in fast mode).")
    var rotations: Bool?

    @Flag(inversion: .prefixedNo, help: "Run the mesh again in the region its first pass gives, up to twice (default: on in accurate mode, off in fast mode).")
    var refineMesh: Bool?

    @Flag(help: ArgumentHelp(
        "With features that need the mesh, detect without a full decode and decode only each face's region at full resolution.",
        discussion: "On a baseline JPEG of about 1024 pixels or more on its longer side the detector's input is rebuilt exactly from "
            + "the pixels it reads, so faces and meshes are the full decode's; other JPEGs detect on a reduced decode, whose box "
            + "moves the mesh (median 0.6–3.6 px on the test photos). Detection alone always decodes reduced."))
    var shrinkOnLoad = false

    @Flag(help: "Print one JSON object per image (JSON Lines).")
    var json = false

    @Flag(help: "Add Vision's landmark regions and ML Kit's ten landmarks (JSON: landmarks, mlkitLandmarks).")
    var landmarks = false

    @Flag(help: "Add ML Kit's fifteen face contours (JSON: contours).")
    var contours = false

    @Flag(help: "Add smiling and eye-open probabilities and the 51 blendshapes: ARKit's 52 but tongueOut, which MediaPipe's model lacks (JSON: smilingProbability, leftEyeOpenProbability, rightEyeOpenProbability, blendshapes).")
    var classify = false

    @Flag(help: "Add the capture quality, 0…1 (JSON: captureQuality).")
    var quality = false

    @Flag(help: "Add the 478-point face mesh (JSON: mesh, x y in pixels, z relative depth in pixels).")
    var mesh = false

    @Option(help: ArgumentHelp(
        "Write the image with the faces drawn in (teal boxes and keypoints; orange landmark regions, contours or mesh points when asked for), as PNG or SVG by the extension.",
        discussion: "With several images, each is written to OUT with \"-<image name>\" added before the extension.",
        valueName: "OUT.png|OUT.svg"))
    var annotate: String?

    @Option(help: ArgumentHelp(
        "Instead of reporting faces, time N detections per image and print the median milliseconds, "
            + "decoding included and excluded (build with -c release); with the mesh flags, detection and the mesh stage together.",
        valueName: "N"))
    var benchmark: Int?

    @Flag(help: "With --benchmark in fast mode, also time each stage of the pipeline (warps, networks, decoding, pose …) and print the medians.")
    var stages = false

    func validate() throws {
        if images.isEmpty, batch.filesFrom == nil {
            throw ValidationError("Missing expected argument '<images> ...' (or --files-from FILE|-)")
        }
        if let benchmark, !(1...100_000).contains(benchmark) {
            throw ValidationError("--benchmark \(benchmark) must be between 1 and 100000")
        }
        if stages, benchmark == nil || mode != .fast {
            throw ValidationError("--stages needs --benchmark N and fast mode")
        }
        guard minFaceSize.isFinite, (0...1).contains(minFaceSize) else {
            throw ValidationError("--min-face-size \(minFaceSize) is out of range: it must be a fraction of the image width in 0…1")
        }
        if let annotate, !["png", "svg"].contains((annotate as NSString).pathExtension.lowercased()) {
            throw ValidationError("--annotate \(annotate) must end in .png or .svg")
        }
    }

    /// What to report beyond the detector's results.
    var extras: FaceFeatures {
        var features: FaceFeatures = []
        for (flag, feature) in [(landmarks, FaceFeatures.landmarks), (contours, .contours), (classify, .classify), (quality, .quality), (mesh, .mesh)]
        where flag { features.insert(feature) }
        return features
    }

    var detector: FaceDetector {
        FaceDetector(options: .init(
            performanceMode: mode == .fast ? .fast : .accurate, landmarkMode: landmarks ? .all : .none,
            contourMode: contours ? .all : .none, classificationMode: classify ? .all : .none, minFaceSize: minFaceSize,
            meshRegionRefinement: refineMesh, rotationSearch: rotations))
    }

    func run() async throws {
        let (detector, extras, annotate, benchmark, stages, shrinkOnLoad) = (detector, extras, annotate, benchmark, stages, shrinkOnLoad)
        let json = json || batch.output != nil
        // A name per image for --annotate when more than one image may come.
        let several = images.count > 1 || batch.filesFrom != nil || images.contains { ImageInputs.Walk.isFolder($0, followingLinks: true) }
        // One image at a time (a single image, or --benchmark's) may spread its decode over the cores; many
        // images already keep every core busy with --jobs.
        let decodeThreads = several && benchmark == nil ? 1 : AvailableCores.count
        let pipeline = try BatchPipeline(options: batch, json: json, jobs: benchmark != nil ? 1 : nil) { path in
            // A file path: `isDirectory` spares Foundation a stat per image to find out. Made only where needed:
            // the detection below reads the path itself (`readImageFile(atPath:)`).
            var url: URL { URL(fileURLWithPath: path, isDirectory: false) }
            if let benchmark {
                return Data(try Self.time(
                    detector, extras: extras, url: url, runs: benchmark, name: path, json: json, stages: stages,
                    shrinkOnLoad: shrinkOnLoad, decodeThreads: decodeThreads).utf8)
            }
            let faces: [FaceDetector.AnalyzedFace], size: CGSize
            if let annotate {
                // Drawing needs every pixel.
                let url = url
                let image = try Image(contentsOf: url, options: .init(applyOrientation: false))
                (faces, size) = (try Self.faces(detector, extras: extras, in: image), image.size)
                try Self.write(faces, extras: extras, on: image, to: several ? Self.path(annotate, for: url) : annotate)
            } else {
                // Only what the request needs: fast detection of a JPEG decodes it reduced.
                let found = try detector.analyzedFaces(
                    decoding: try readImageFile(atPath: path), features: extras, meshFromReducedDecode: shrinkOnLoad,
                    decodeThreads: decodeThreads)
                (faces, size) = (found.faces, CGSize(width: found.width, height: found.height))
            }
            if json {
                return try JSONOutput.encodedLine(FacesRecord(
                    image: path, width: Int(size.width), height: Int(size.height),
                    faces: faces.map { FaceRecord($0, features: extras, imageSize: size) }))
            }
            return Data((Self.summary(faces, extras: extras, name: path, size: size) + "\n").utf8)
        }
        try await pipeline.run(paths: images)
    }

    static func faces(_ detector: FaceDetector, extras: FaceFeatures, in image: Image) throws -> [FaceDetector.AnalyzedFace] {
        try detector.analyzedFaces(in: image, mesh: extras.needsMesh, captureQuality: extras.contains(.quality))
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
        /// Decoding the whole image alone, for comparison with the reduced decode of decode and detect.
        var fullDecodeMilliseconds: Double
        var fullDecodeCPUMilliseconds: Double
        /// Threads decode and detect may decode with (a JPEG with restart markers); the full decode uses one.
        var decodeThreads: Int
        /// With --stages: each stage's median milliseconds, in pipeline order.
        var stages: [Stage]?
    }

    struct Stage: Encodable {
        var stage: String
        var milliseconds: Double
    }

    /// Median wall-clock and CPU times of `runs` detections on the decoded image, of `runs` full decodes,
    /// and of `runs` decode-and-detect passes from the file's bytes as the command runs them (read once, so disk speed is left out), after two
    /// warm-up runs; with `stages`, the pipeline's stages too (``StageProfile``).
    static func time(
        _ detector: FaceDetector, extras: FaceFeatures, url: URL, runs: Int, name: String, json: Bool, stages: Bool, shrinkOnLoad: Bool,
        decodeThreads: Int = 1
    ) throws -> String {
        let data = try Data(contentsOf: url)
        let decode = { () throws -> Image in try Image(data: data, options: .init(applyOrientation: false)) }
        let image = try decode()
        var faces = 0
        func medians(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
            let samples = try Stopwatch.measure(runs: runs, warmUp: 2, body)
            return (Stopwatch.percentile(samples.wall, 0.5), Stopwatch.percentile(samples.cpu, 0.5))
        }
        let detect = try medians { faces = try Self.faces(detector, extras: extras, in: image).count }
        // From the bytes as the command runs it: a JPEG in fast mode is decoded reduced (shrink on load).
        let decodeAndDetect = try medians {
            _ = try detector.analyzedFaces(decoding: data, features: extras, meshFromReducedDecode: shrinkOnLoad, decodeThreads: decodeThreads)
        }
        let fullDecode = try medians { _ = try decode() }
        let timing = Timing(
            image: name, runs: runs, faces: faces, detectMilliseconds: detect.wall,
            decodeAndDetectMilliseconds: decodeAndDetect.wall, detectCPUMilliseconds: detect.cpu,
            decodeAndDetectCPUMilliseconds: decodeAndDetect.cpu, fullDecodeMilliseconds: fullDecode.wall,
            fullDecodeCPUMilliseconds: fullDecode.cpu, decodeThreads: decodeThreads,
            stages: stages ? try StageProfile.measure(image, mesh: extras.needsMesh, runs: runs).map(Stage.init) : nil)
        if json {
            return String(decoding: try JSONOutput.encodedLine(timing), as: UTF8.self)
        }
        let format = { (value: Double) in String(format: "%.3f", value) }
        let stage = extras.needsMesh ? "detect and mesh" : "detect"
        var text = "\(name): \(faces == 1 ? "1 face" : "\(faces) faces"); \(stage) \(format(detect.wall)) ms (CPU \(format(detect.cpu))), "
            + "decode and \(stage) \(format(decodeAndDetect.wall)) ms (CPU \(format(decodeAndDetect.cpu))), "
            + "full decode alone \(format(fullDecode.wall)) ms (CPU \(format(fullDecode.cpu)), one thread); medians of \(runs)\n"
        for entry in timing.stages ?? [] {
            text += "  \(entry.stage.padding(toLength: 28, withPad: " ", startingAt: 0)) \(format(entry.milliseconds)) ms\n"
        }
        return text
    }

    static func summary(_ faces: [FaceDetector.AnalyzedFace], extras: FaceFeatures, name: String, size: CGSize) -> String {
        let count = faces.isEmpty ? "no faces found" : faces.count == 1 ? "1 face found" : "\(faces.count) faces found"
        var text = "\(name) (\(Int(size.width))×\(Int(size.height))): \(count)"
        func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
        for (index, analyzed) in faces.enumerated() {
            let face = analyzed.face
            let f = face.frame
            text += "\n  face \(index + 1): x \(Int(f.minX.rounded())), y \(Int(f.minY.rounded())), "
                + "\(Int(f.width.rounded()))×\(Int(f.height.rounded())) px, "
                + "confidence \(format(Double(face.confidence))), "
                + "roll \(format(face.headEulerAngleZ, 1))°, yaw \(format(face.headEulerAngleY, 1))°, "
                + "pitch \(format(face.headEulerAngleX, 1))°"
            guard extras.needsMesh else { continue }
            guard let analysis = analyzed.analysis else {
                text += "\n    no face mesh: the mesh model found no face in this box"
                continue
            }
            if extras.contains(.classify), let smile = face.smilingProbability, let left = face.leftEyeOpenProbability,
               let right = face.rightEyeOpenProbability {
                text += "\n    smiling \(format(Double(smile))), left eye open \(format(Double(left))), right eye open \(format(Double(right)))"
                let top = Blendshape.allCases.sorted { analysis.blendshapes[$0] > analysis.blendshapes[$1] }.prefix(3)
                text += "\n    strongest blendshapes: " + top.map { "\($0) \(format(Double(analysis.blendshapes[$0])))" }.joined(separator: ", ")
            }
            if extras.contains(.quality), let quality = analyzed.captureQuality {
                text += "\n    capture quality \(format(Double(quality)))"
            }
            if extras.contains(.landmarks) {
                text += "\n    landmarks: " + face.landmarks.map {
                    "\($0.type.rawValue) (\(Int($0.position.x.rounded())), \(Int($0.position.y.rounded())))"
                }.joined(separator: ", ")
            }
            if extras.contains(.contours) {
                text += "\n    contours: \(face.contours.count) with \(face.contours.reduce(0) { $0 + $1.points.count }) points"
            }
            if extras.contains(.mesh) {
                text += "\n    mesh: \(analysis.mesh.points.count) points, face presence \(format(Double(analysis.mesh.presence)))"
            }
        }
        return text
    }

    /// `out` with the image's name added: `faces.png` + `a/b.jpg` → `faces-b.png`.
    static func path(_ out: String, for image: URL) -> String {
        let base = out as NSString
        let stem = image.deletingPathExtension().lastPathComponent
        return (base.deletingPathExtension + "-" + stem as NSString).appendingPathExtension(base.pathExtension) ?? out
    }

    static func write(_ faces: [FaceDetector.AnalyzedFace], extras: FaceFeatures, on image: Image, to path: String) throws {
        let shapes = faces.flatMap { FaceAnnotation.shapes($0, features: extras, imageSize: image.size) }
        let data: Data
        if (path as NSString).pathExtension.lowercased() == "svg" {
            data = Data(try FaceAnnotation.svg(faces.map(\.face), shapes: shapes, on: image).utf8)
        } else {
            data = try FaceAnnotation.drawn(faces.map(\.face), shapes: shapes, on: image).pngData()
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
