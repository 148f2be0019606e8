import Foundation
import Testing
import Visage

/// `visage detect --mesh` on a JPEG over the wire: by default the record is the full decode's, number for
/// number; with `--shrink-on-load` it is the region-decode path's (detection on the pixels the detector
/// reads, the face's window at full resolution for the mesh), which on this 1280×960 JPEG is the same record.
@Suite(.serialized)
struct RegionDecodeCLITests {
    @Test func jpegMeshRecordIsTheRegionDecodePaths() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("visage-region-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The face fixture at twice its size (1280×960), so detection decodes it at half size.
        let fixture = CLIRunner.packageRoot.appendingPathComponent("Tests/VisageTests/Fixtures/one-face.jpg")
        let small = try Image(contentsOf: fixture)
        let data = try small.resized(width: 2 * small.width, height: 2 * small.height, method: .bilinear).jpegData(quality: 95)
        try data.write(to: folder.appendingPathComponent("face.jpg"))

        let result = try CLIRunner.run(["detect", "--json", "--mesh", "--quality", "--shrink-on-load", "face.jpg"], in: folder)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let wire = try JSONDecoder().decode(FacesRecord.self, from: Data(result.stdout.utf8))
        let detector = FaceDetector(options: .init(performanceMode: .fast))
        let decoding = try FacesRecord(
            decoding: data, named: "face.jpg", detector: detector, features: [.mesh, .quality], meshFromReducedDecode: true)
        let full = try FacesRecord(
            analyzing: try Image(data: data, options: .init(applyOrientation: false)), named: "face.jpg", detector: detector,
            features: [.mesh, .quality])
        try #require(wire.faces.count == 1 && decoding.faces.count == 1 && full.faces.count == 1)
        let mesh = try #require(wire.faces[0].mesh)
        #expect(mesh.count == FaceMesh.pointCount)
        func distances(_ other: [FaceRecord.Point3]) -> [Double] {
            zip(mesh, other).map { ((($0.x - $1.x) * ($0.x - $1.x)) + (($0.y - $1.y) * ($0.y - $1.y))).squareRoot() }.sorted()
        }
        // The same path in this process: the same numbers.
        #expect(distances(try #require(decoding.faces[0].mesh)).last! < 1e-3)
        #expect(wire.faces[0].captureQuality == decoding.faces[0].captureQuality)
        // The full decode: the detector's input is the full decode's (JPEGSparseDecoder), so the same mesh.
        #expect(distances(try #require(full.faces[0].mesh)).last! < 1e-3)

        // Without the flag: the full decode's record.
        let plain = try CLIRunner.run(["detect", "--json", "--mesh", "--quality", "face.jpg"], in: folder)
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
        let plainRecord = try JSONDecoder().decode(FacesRecord.self, from: Data(plain.stdout.utf8))
        try #require(plainRecord.faces.count == 1)
        let plainMesh = try #require(plainRecord.faces[0].mesh), fullMesh = try #require(full.faces[0].mesh)
        #expect(zip(plainMesh, fullMesh).allSatisfy { abs($0.x - $1.x) < 1e-3 && abs($0.y - $1.y) < 1e-3 })
        #expect(plainRecord.faces[0].captureQuality == full.faces[0].captureQuality)
        // Both paths print the same record, byte for byte.
        #expect(result.stdout == plain.stdout)
    }
}
