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
        #expect(throws: ModelFileError.self) { try BundledModel.verified(contentsOf: url, as: model) }
        do {
            _ = try BundledModel.verified(contentsOf: url, as: model)
        } catch {
            #expect(error.description.hasPrefix("model file geometry_pipeline_metadata_landmarks.binarypb is not the bundled one: SHA-256 "))
        }
    }

    @Test func truncatedFileIsRejectedBySize() throws {
        let model = BundledModel.faceGeometry
        let url = try temporaryFile(named: model.fileName, contents: try model.load().prefix(100))
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

    private func temporaryFile(named name: String, contents: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }
}
