import Foundation
import Testing

/// `visage` copied out of `.build`, as an installer or a user would, finds its models (or says where it
/// looked) with an empty environment. `Scripts/package.sh` checks the same on the release tarball.
@Suite struct InstalledBinaryTests {
    static let modelFiles = [
        "face_detection_short_range.tflite", "face_detection_full_range.tflite", "face_detection_full_range_sparse.tflite",
        "face_landmarks_detector.tflite",
        "face_blendshapes.tflite", "geometry_pipeline_metadata_landmarks.binarypb",
    ]
    static let sample = CLIRunner.packageRoot.appendingPathComponent("Samples/astronaut.png").path

    /// An empty folder holding a copy of the built binary at `relativePath`; the caller removes it.
    private func install(at relativePath: String) throws -> (root: URL, binary: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        let binary = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        var installed = false
        defer { if !installed { try? FileManager.default.removeItem(at: root) } }
        // Copied by a `cp` child, not by this process: a copy's write descriptor open here is inherited by
        // any process a parallel test starts meanwhile, and while one holds it, running the copy fails with
        // "Text file busy" (ETXTBSY). A child's descriptor is never shared.
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [CLIRunner.executable.path, binary.path]
        try copy.run()
        copy.waitUntilExit()
        try #require(copy.terminationStatus == 0, "cp \(CLIRunner.executable.path) exited \(copy.terminationStatus)")
        installed = true
        return (root, binary)
    }

    private func copyModels(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in Self.modelFiles {
            try FileManager.default.copyItem(
                at: CLIRunner.packageRoot.appendingPathComponent("Models/\(name)"), to: folder.appendingPathComponent(name))
        }
    }

    @Test func withoutModelsExitsOneAndListsThePlacesSearched() throws {
        let (root, binary) = try install(at: "visage")
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try CLIRunner.run(["detect", Self.sample], in: root, program: binary, environment: [:])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let folder = root.standardizedFileURL.path
        let parent = root.deletingLastPathComponent().standardizedFileURL.path
        #expect(result.stderr.contains(
            "model file face_detection_short_range.tflite was not found in \(folder)/Visage_VisageModels.resources (beside the executable), "
                + "\(parent)/share/visage (install prefix); set VISAGE_MODELS to a folder that holds the models"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test func findsModelsInTheInstallPrefix() throws {
        let (root, binary) = try install(at: "bin/visage")
        defer { try? FileManager.default.removeItem(at: root) }
        try copyModels(to: root.appendingPathComponent("share/visage"))
        let result = try CLIRunner.run(["detect", Self.sample], in: root, program: binary, environment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 face found"))
    }

    @Test func findsModelsThroughASymbolicLinkToTheBinary() throws {
        let (root, binary) = try install(at: "opt/visage/bin/visage")
        defer { try? FileManager.default.removeItem(at: root) }
        try copyModels(to: root.appendingPathComponent("opt/visage/share/visage"))
        let link = root.appendingPathComponent("bin/visage")
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: binary)
        let result = try CLIRunner.run(["detect", Self.sample], in: root, program: link, environment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 face found"))
    }

    @Test func findsModelsThroughTheEnvironment() throws {
        let (root, binary) = try install(at: "visage")
        defer { try? FileManager.default.removeItem(at: root) }
        let models = CLIRunner.packageRoot.appendingPathComponent("Models").path
        let result = try CLIRunner.run(["detect", Self.sample], in: root, program: binary, environment: ["VISAGE_MODELS": models])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 face found"))
    }
}
