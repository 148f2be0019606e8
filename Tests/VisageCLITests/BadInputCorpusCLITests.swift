import Foundation
import Testing
import Visage

/// The bad-input corpus (Tests/Corpus) through the CLI as a user runs it: images with `visage contours`,
/// video streams with `visage track`. Each file fails with exit status 1 and the very message (and so
/// the code) the library gives, or succeeds where the manifest says "ok", within a time and a memory
/// bound. Models have no CLI entry point; VisageTests runs them through the library.
struct BadInputCorpusCLITests {
    /// Peak resident memory of one `visage` process, debug build. A run on a 48×32 image peaks near
    /// 40 MB; the models loaded by `track` add about 30 MB. Before the fixes, png-itxt-2gb.png peaked at
    /// 2.1 GB and y4m-huge-frame-no-data.y4m at 140 MB.
    static let memoryLimit = 128 << 20
    /// One process, debug build, on a shared machine.
    static let timeLimit = Duration.seconds(20)

    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        var file, kind, expect, why: String
        var width, height: Int?
        var testDescription: String { file }
    }

    static let folder = CLIRunner.packageRoot.appendingPathComponent("Tests/Corpus")

    static let entries: [Entry] = {
        struct Manifest: Decodable { var entries: [Entry] }
        do {
            return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json"))).entries
        } catch {
            fatalError("Tests/Corpus/manifest.json unreadable: \(error); run Scripts/make-bad-inputs.py")
        }
    }()

    @Test("Each corpus file fails in the CLI as in the library", arguments: entries.filter { $0.kind != "model" })
    func cli(_ entry: Entry) throws {
        let path = Self.folder.appendingPathComponent(entry.file).path
        let run: MeasuredRun
        let libraryError: ErrorRecord?
        // `track` skips a frame that is truncated or changes size with a warning, goes on, and exits 1 as
        // `detect` does after an unreadable file (issue 19); a stream it cannot open or parse is an error (exit 1).
        var frameError = false
        switch entry.kind {
        case "image":
            run = try MeasuredRun.run(["contours", path])
            libraryError = Self.error { _ = try Image(contentsOf: Self.folder.appendingPathComponent(entry.file)) }
        case "y4m":
            run = try MeasuredRun.run(["track", path, "--events-only"])
            libraryError = Self.error {
                let source = try Y4MFrameSource(path: Self.folder.appendingPathComponent(entry.file).path)
                try Self.drain(source, frameError: &frameError)
            }
        default:
            let (width, height) = (entry.width ?? 0, entry.height ?? 0)
            run = try MeasuredRun.run(["track", "-", "--size", "\(width)x\(height)", "--events-only"], standardInput: Self.folder.appendingPathComponent(entry.file))
            libraryError = Self.error {
                let source = try RawRGBFrameSource(path: Self.folder.appendingPathComponent(entry.file).path, width: width, height: height, frameRate: 30)
                try Self.drain(source, frameError: &frameError)
            }
        }
        #expect((libraryError?.code.rawValue ?? "ok") == entry.expect, "library: \(String(describing: libraryError))")
        if let libraryError, frameError {
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("warning: skipped: \(libraryError.message)"), "CLI said: \(run.stderr)")
            #expect(run.stderr.contains(" frames could not be read\n"), "CLI said: \(run.stderr)")
        } else if let libraryError {
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains(libraryError.message), "CLI said: \(run.stderr)")
        } else {
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(run.peakMemory < Self.memoryLimit, "peak \(run.peakMemory >> 20) MB")
        #expect(run.elapsed < Self.timeLimit, "took \(run.elapsed)")
    }

    private static func error(_ body: () throws -> Void) -> ErrorRecord? {
        do {
            try body()
            return nil
        } catch {
            return ErrorRecord(error)
        }
    }

    /// Reads every frame; frame-level errors rethrown as they are, after noting them.
    private static func drain(_ source: any FrameSource, frameError: inout Bool) throws {
        do {
            while try source.nextFrame() != nil {}
        } catch {
            switch error {
            case .truncatedFrame, .frameSizeChanged, .unreadableFrame: frameError = true
            default: break
            }
            throw error
        }
    }
}
