import Foundation
import Testing
import VisageModels

@Suite struct BundledModelTests {
    @Test(arguments: BundledModel.allCases)
    func bundledFileVerifies(_ model: BundledModel) throws {
        let data = try model.load()
        #expect(data.count == model.byteCount)
    }

    @Test func alteredFileIsRejected() throws {
        let model = BundledModel.faceGeometry
        var bytes = try model.load()
        bytes[bytes.count / 2] ^= 0x01
        let url = try temporaryFile(named: model.fileName, contents: bytes)
        defer { removeFolder(of: url) }
        #expect(throws: ModelFileError.self) { try BundledModel.verified(contentsOf: url, as: model) }
        do {
            _ = try BundledModel.verified(contentsOf: url, as: model)
        } catch {
            #expect(error.description.hasPrefix("model file geometry_pipeline_metadata_landmarks.binarypb is not the bundled one: SHA-256 "))
            // The remedy works for the release archive's users too, who have no Scripts/ folder.
            #expect(error.description.hasSuffix("; restore the models from Visage's release archive (its share/visage folder), or in a source checkout run Scripts/fetch-models.sh"))
        }
    }

    @Test func truncatedFileIsRejectedBySize() throws {
        let model = BundledModel.faceGeometry
        let url = try temporaryFile(named: model.fileName, contents: try model.load().prefix(100))
        defer { removeFolder(of: url) }
        #expect(throws: ModelFileError.altered(model: model.fileName, reason: "100 bytes, expected 19376")) {
            try BundledModel.verified(contentsOf: url, as: model)
        }
    }

    @Test func missingFileIsNamed() {
        let url = URL(fileURLWithPath: "/nonexistent/face_blendshapes.tflite")
        #expect(throws: ModelFileError.missing(model: "face_blendshapes.tflite", path: url.path)) {
            try BundledModel.verified(contentsOf: url, as: .faceBlendshapes)
        }
    }

    /// The application's folder, then `VISAGE_MODELS`, then beside each executable folder, then each
    /// install prefix; duplicates once.
    @Test func searchPathOrder() {
        let places = ModelLocation.searchPath(
            directory: URL(fileURLWithPath: "/app/models"), environment: ["VISAGE_MODELS": "/env/models/", "HOME": "/root"],
            executableFolders: [URL(fileURLWithPath: "/opt/visage/bin"), URL(fileURLWithPath: "/usr/local/bin")])
        #expect(places.map(\.description) == [
            "/app/models (ModelLocation.directory)",
            "/env/models (VISAGE_MODELS)",
            "/opt/visage/bin/Visage_VisageModels.resources (beside the executable)",
            "/usr/local/bin/Visage_VisageModels.resources (beside the executable)",
            "/opt/visage/share/visage (install prefix)",
            "/usr/local/share/visage (install prefix)",
        ])
        let bare = ModelLocation.searchPath(directory: nil, environment: ["VISAGE_MODELS": ""], executableFolders: [URL(fileURLWithPath: "/x/bin")])
        #expect(bare.map(\.origin) == [.besideExecutable, .installPrefix])
    }

    /// The first place holding the file wins; a place holding a folder of that name does not count.
    @Test func firstPlaceHoldingTheFileWins() throws {
        let model = BundledModel.faceGeometry
        let first = try temporaryFile(named: model.fileName, contents: Data([1])).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: first) }
        let second = try temporaryFile(named: model.fileName, contents: Data([2])).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: second) }
        let decoy = try temporaryFile(named: "unrelated", contents: Data()).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: decoy) }
        try FileManager.default.createDirectory(at: decoy.appendingPathComponent(model.fileName), withIntermediateDirectories: true)
        let places = [decoy, first, second].map { ModelLocation.Place(path: $0.path, origin: .installPrefix) }
        #expect(try ModelLocation.url(for: model, searchPath: places).path == first.appendingPathComponent(model.fileName).path)
    }

    @Test func notFoundListsEveryPlaceSearched() {
        let places = [
            ModelLocation.Place(path: "/nowhere/a", origin: .environment),
            ModelLocation.Place(path: "/nowhere/b", origin: .installPrefix),
        ]
        let expected = ModelFileError.notFound(model: "face_blendshapes.tflite", searched: places)
        #expect(throws: expected) { try ModelLocation.url(for: .faceBlendshapes, searchPath: places) }
        #expect(expected.description == "model file face_blendshapes.tflite was not found in /nowhere/a (VISAGE_MODELS), "
            + "/nowhere/b (install prefix); set VISAGE_MODELS to a folder that holds the models, or install them in "
            + "<folder of the executable>/../share/visage")
    }

    /// A folder the application sets is searched first. It holds a genuine copy, so tests loading
    /// models at the same time are unaffected.
    @Test func applicationDirectoryComesFirst() throws {
        let model = BundledModel.faceGeometry
        let copy = try temporaryFile(named: model.fileName, contents: try model.load())
        defer { removeFolder(of: copy) }
        ModelLocation.directory = copy.deletingLastPathComponent()
        defer { ModelLocation.directory = nil }
        #expect(ModelLocation.searchPath.first == ModelLocation.Place(path: copy.deletingLastPathComponent().path, origin: .application))
        #expect(try model.url.path == copy.path)
        #expect(try model.load().count == model.byteCount)
    }

    /// FIPS 180-4 example vectors, including the two-block message.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256Vectors(_ message: String, _ digest: String) {
        #expect(SHA256.hexDigest(of: Array(message.utf8)) == digest)
    }

    /// `contents` as file `name` in a new folder of the temporary directory; the caller removes the
    /// folder (``removeFolder(of:)``).
    private func temporaryFile(named name: String, contents: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        do {
            try contents.write(to: url)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        return url
    }

    private func removeFolder(of url: URL) {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }
}
