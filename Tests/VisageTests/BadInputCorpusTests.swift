import Foundation
import Testing
import Visage
import VisageImage
import VisageNN
import VisageVideo

/// Every file of the bad-input corpus (Tests/Corpus, written by Scripts/make-bad-inputs.py) through the
/// library: the stable error code its manifest names, or a decode, within a time bound — never a crash.
/// The CLI runs the same files in VisageCLITests with a memory bound as well.
struct BadInputCorpusTests {
    /// Each file, debug build, run beside the rest of the suite on a shared 2-core machine (the first
    /// video entry also loads the detector), in CPU time of the thread that runs it: wall time measured
    /// the machine's load too (a fresh clone's CI, with other builds at nice 19 and a load average of
    /// 10–16, saw 18–27 s for video entries that take a few seconds alone). Without the tiny-frame floor,
    /// y4m-tiny-frames alone would run the detector 2000 times, far beyond this.
    static let cpuLimit = Duration.seconds(10)
    /// A wait that burns no CPU (a deadlock) is caught by the wall clock, with room for any load.
    static let wallLimit = Duration.seconds(120)

    @Test("Each corpus file gives its expected code", arguments: Corpus.entries)
    func library(_ entry: Corpus.Entry) throws {
        let clock = ContinuousClock()
        var outcome = ""
        let cpuBefore = Self.threadCPUTime()
        let elapsed = try clock.measure { outcome = try Corpus.run(entry) }
        let cpu = Self.threadCPUTime() - cpuBefore
        #expect(outcome == entry.expect, "\(entry.file): \(entry.why)")
        #expect(cpu < Self.cpuLimit, "\(entry.file) took \(cpu) of CPU")
        #expect(elapsed < Self.wallLimit, "\(entry.file) took \(elapsed)")
    }

    /// The calling thread's CPU time (a synchronous test runs on one thread from start to end).
    static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    @Test func corpusCoversEveryKind() {
        #expect(Corpus.entries.count >= 50)
        let kinds = Set(Corpus.entries.map(\.kind))
        #expect(kinds == ["image", "y4m", "raw", "model"])
        // Every code a bad input can give is a code of the shared table.
        for entry in Corpus.entries where entry.expect != "ok" {
            #expect(ErrorCode(rawValue: entry.expect) != nil, "\(entry.file): \(entry.expect)")
        }
    }

    /// The issue's case: libpng once allocated and zeroed 2 GB for a chunk declaring 2^31-1 bytes.
    @Test func chunkDeclaringTwoGigabytesCostsLibpngNothing() throws {
        // With no image data before it, the issue's file is refused before libpng runs; this one has its
        // image data first, so libpng reads the image and then meets the chunk.
        let data = try Data(contentsOf: Corpus.folder.appendingPathComponent("png-text-after-idat-2gb.png"))
        let (result, peak) = Self.decodePNG(data)
        guard case .failure(.truncated(.png, _)) = result else { Issue.record("expected truncated PNG, got \(result)"); return }
        #expect(peak > 0 && peak < 256 << 10, "libpng held \(peak) bytes at most")
    }

    /// Compressed text and ICC chunks are skipped unread; image data inflates only into the rows.
    @Test(arguments: ["png-ztxt-bomb.png", "png-itxt-bomb.png", "png-iccp-bomb.png", "png-idat-excess.png"])
    func zlibBombsAreNotInflatedIntoMemory(_ name: String) throws {
        let data = try Data(contentsOf: Corpus.folder.appendingPathComponent(name))
        let (result, peak) = Self.decodePNG(data)
        let image = try result.get()
        #expect(image.width == 16 && image.height == 16)
        #expect(peak < 256 << 10, "libpng held \(peak) bytes at most")
    }

    /// libpng's decode of `data`, and the most memory libpng held at once.
    static func decodePNG(_ data: Data) -> (Result<Image, ImageError>, peak: Int) {
        var peak = 0
        let result = [UInt8](data).withUnsafeBytes { bytes in
            Result { () throws(ImageError) in
                try PNGCodec.decode(bytes, pixelLimit: ImageDecodingOptions.defaultPixelLimit, libpngPeakBytes: &peak)
            }
        }
        return (result, peak)
    }

    /// A frame's memory follows the bytes that arrive: a header claiming 16384×4096 over 6 bytes of
    /// data does not reserve the 100 MB frame.
    @Test func declaredFrameSizeIsNotAllocatedUpFront() throws {
        let url = Corpus.folder.appendingPathComponent("y4m-huge-frame-no-data.y4m")
        var buffer: [UInt8] = []
        let stream = try ByteStream(path: url.path)
        _ = try stream.readLine(maximumLength: 1024, format: "YUV4MPEG2")
        _ = try stream.readLine(maximumLength: 1024, format: "YUV4MPEG2")
        #expect(try stream.readGrowing(16384 * 4096 * 3 / 2, into: &buffer) == 0)
        #expect(buffer.capacity < 1 << 20)
    }

    /// Frames too small to hold a face skip the detector: no stage of it runs.
    @Test func tinyPicturesSkipTheDetector() throws {
        for (width, height) in [(2, 2), (7, 400), (400, 7)] {
            let image = try Image(width: width, height: height, pixelFormat: .gray8, pixels: [UInt8](repeating: 128, count: width * height))
            var stages: [String] = []
            let faces = try FaceDetectionPipeline.detect(in: image, mode: .fast, stageEnded: { stages.append($0) })
            #expect(faces.isEmpty && stages.isEmpty, "\(width)×\(height) ran \(stages)")
        }
        let smallest = FaceDetectionPipeline.minimumImageSide
        let image = try Image(width: smallest, height: smallest, pixelFormat: .gray8, pixels: [UInt8](repeating: 128, count: smallest * smallest))
        var stages: [String] = []
        _ = try FaceDetectionPipeline.detect(in: image, mode: .fast, stageEnded: { stages.append($0) })
        #expect(stages.contains("detector lookup"))
    }
}

/// Tests/Corpus and its manifest.
enum Corpus {
    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        var file, kind, expect, why: String
        var width, height, frames: Int?
        var outputs: String?
        var testDescription: String { file }
    }

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Corpus")

    /// A file's bytes through FileHandle: Foundation 6.3's `Data(contentsOf:)` leaks its 4 KB read buffer
    /// for an empty file, which AddressSanitizer runs report (FUZZING.md, finding 3).
    static func read(_ url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }

    static let entries: [Entry] = {
        struct Manifest: Decodable { var entries: [Entry] }
        do {
            return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json"))).entries
        } catch {
            fatalError("Tests/Corpus/manifest.json unreadable: \(error); run Scripts/make-bad-inputs.py")
        }
    }()

    /// "ok", or the stable code of the error the library gives.
    static func run(_ entry: Entry) throws -> String {
        let url = folder.appendingPathComponent(entry.file)
        do {
            switch entry.kind {
            case "image":
                // The header probe must never crash or hang either, whatever it concludes.
                _ = try? ImageFileInfo.read(contentsOf: url)
                // Fast detection from the encoded bytes, as `visage detect` and `visage serve` run it, decodes
                // only what the detector needs (the exact sparse input, a reduced decode): it must fail as the
                // full decode does, never answer from the header alone.
                let detection = code {
                    _ = try FaceDetector(options: .init(performanceMode: .fast)).analyzedFaces(decoding: read(url), features: [])
                }
                let image: Image
                do {
                    image = try Image(contentsOf: url)
                } catch {
                    let decode = ErrorRecord(error).code.rawValue
                    #expect(detection == decode, "\(entry.file): fast detection \(detection), full decode \(decode)")
                    throw error
                }
                #expect(detection == "ok", "\(entry.file): fast detection \(detection), full decode ok")
                if let width = entry.width, let height = entry.height {
                    #expect(image.width == width && image.height == height, "\(entry.file): \(image.width)×\(image.height)")
                }
            case "y4m":
                let source = try Y4MFrameSource(path: url.path)
                try track(source, expectedFrames: entry.frames)
            case "raw":
                let source = try RawRGBFrameSource(path: url.path, width: entry.width ?? 0, height: entry.height ?? 0, frameRate: 30)
                try track(source, expectedFrames: entry.frames)
            case "model":
                // Not Data(contentsOf:), which leaks its read buffer for the empty model (FUZZING.md, finding 3).
                let model = try Model(data: Corpus.read(url))
                let interpreter = try Interpreter(model: model)
                for input in model.inputs.indices { interpreter.withInput(input) { $0.update(repeating: 0.5) } }
                try interpreter.invoke()
                if entry.outputs == "nan" {
                    let outputs = interpreter.output(0)
                    #expect(!outputs.isEmpty && outputs.allSatisfy { $0.isNaN })
                }
            default:
                Issue.record("unknown kind \(entry.kind)")
            }
            return "ok"
        } catch {
            return ErrorRecord(error).code.rawValue
        }
    }

    /// "ok", or the stable code of the error `body` throws.
    private static func code(_ body: () throws -> Void) -> String {
        do { try body(); return "ok" } catch { return ErrorRecord(error).code.rawValue }
    }

    /// Every frame through the face tracker, as `visage track` runs them; none of the corpus holds a face.
    private static func track(_ source: any FrameSource, expectedFrames: Int?) throws {
        let tracker = try FaceTracker()
        var count = 0
        while let frame = try source.nextFrame() {
            #expect(try tracker.process(frame).faces.isEmpty)
            count += 1
        }
        if let expectedFrames { #expect(count == expectedFrames) }
    }
}
