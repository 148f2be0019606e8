import Foundation
import Testing
import Visage
import VisageModels

/// The head-pose stage against MediaPipe FaceLandmarker 0.10.21's facial transformation matrices.
struct PoseTests {
    static let geometry: FaceGeometry = {
        try! FaceGeometry(metadata: FaceGeometryMetadata(data: BundledModel.faceGeometry.load()))
    }()

    @Test func metadataHoldsTheCanonicalFace() throws {
        let metadata = Self.geometry.metadata
        #expect(metadata.canonicalVertices.count == FaceMesh.surfacePointCount)
        #expect(metadata.basis.count == 33)
        #expect(metadata.basis.allSatisfy { $0.weight > 0 && $0.index < 468 })
        // The nose tip (1) protrudes furthest towards the viewer; the outer eye corners mirror each other.
        let vertices = metadata.canonicalVertices
        #expect(vertices.indices.max { vertices[$0].z < vertices[$1].z } == 1 || vertices[1].z > 7)
        #expect(abs(vertices[33].x + vertices[263].x) < 1e-3 && abs(vertices[33].y - vertices[263].y) < 1e-3)
        #expect(vertices[263].x > 0, "x points to the subject's left")
    }

    @Test(arguments: LandmarkFixtures.names)
    func transformMatchesMediaPipe(name: String) throws {
        let photo = LandmarkFixtures.photo(name)
        let pose = try Self.geometry.pose(for: photo.mesh)
        for row in 0..<3 {
            for column in 0..<3 {
                let (ours, theirs) = (pose.transform[4 * row + column], photo.matrix[4 * row + column])
                #expect(abs(ours - theirs) < 0.01, "\(name): R[\(row)][\(column)] \(ours) vs \(theirs)")
            }
            let (ours, theirs) = (pose.transform[4 * row + 3], photo.matrix[4 * row + 3])
            #expect(abs(ours - theirs) < 0.05 * max(1, abs(theirs)), "\(name): t[\(row)] \(ours) vs \(theirs)")
        }
        let reference = HeadPose(transform: photo.matrix)
        for (ours, theirs, label) in [(pose.roll, reference.roll, "roll"), (pose.yaw, reference.yaw, "yaw"), (pose.pitch, reference.pitch, "pitch")] {
            #expect(abs(ours - theirs) * 180 / .pi < 2, "\(name): \(label) \(ours) vs MediaPipe's \(theirs)")
        }
    }

    @Test func rolledPhotoGivesTheAppliedRoll() throws {
        let upright = try Self.geometry.pose(for: LandmarkFixtures.photo("astronaut.jpg").mesh)
        let rolledPhoto = LandmarkFixtures.photo("astronaut-rolled.jpg")
        let rolled = try Self.geometry.pose(for: rolledPhoto.mesh)
        let roll = (rolled.roll - upright.roll) * 180 / .pi
        #expect(abs(roll - rolledPhoto.rollDegrees) < 1, "rolled by \(roll)°, expected \(rolledPhoto.rollDegrees)°")
        #expect(abs(rolled.headEulerAngleZ - upright.headEulerAngleZ - rolledPhoto.rollDegrees) < 1)
    }

    @Test func anglesFollowTheirDocumentedSigns() {
        // Pure rotations of known angle and direction.
        func pose(_ rotation: [[Double]]) -> HeadPose {
            HeadPose(transform: rotation.flatMap { $0 + [0] } + [0, 0, 0, 1])
        }
        let a = 0.3, (s, c) = (sin(0.3), cos(0.3))
        // Counter-clockwise in the picture (y up): about +z.
        #expect(abs(pose([[c, -s, 0], [s, c, 0], [0, 0, 1]]).roll - a) < 1e-12)
        // Nose (+z) turned towards the picture's right (+x): about +y.
        let turned = pose([[c, 0, s], [0, 1, 0], [-s, 0, c]])
        #expect(abs(turned.yaw - a) < 1e-12 && abs(turned.headEulerAngleY - a * 180 / .pi) < 1e-9)
        // Nose turned up (+y): about −x.
        let up = pose([[1, 0, 0], [0, c, s], [0, -s, c]])
        #expect(abs(up.pitch - a) < 1e-12 && up.headEulerAngleX > 0)
        // A uniform scale does not change the angles.
        let scaled = HeadPose(transform: [2 * c, -2 * s, 0, 1, 2 * s, 2 * c, 0, 2, 0, 0, 2, 3, 0, 0, 0, 1])
        #expect(abs(scaled.roll - a) < 1e-12 && abs(scaled.yaw) < 1e-12)
    }

    @Test func degenerateMeshesThrow() {
        let collapsed = FaceMesh(points: [SIMD3<Float>](repeating: SIMD3(0.5, 0.5, 0), count: 478), presence: 1, imageWidth: 640, imageHeight: 480)
        #expect(throws: FaceGeometryError.degenerateLandmarks(reason: "landmarks lie within 0.0 of their centre")) {
            try Self.geometry.pose(for: collapsed)
        }
        let short = FaceMesh(points: [SIMD3<Float>](repeating: .zero, count: 100), presence: 1, imageWidth: 640, imageHeight: 480)
        #expect(throws: FaceGeometryError.meshSize(count: 100, expected: 468)) { try Self.geometry.pose(for: short) }
        var poisoned = LandmarkFixtures.photo("astronaut.jpg").mesh
        poisoned.points[5].x = .nan
        #expect(throws: FaceGeometryError.degenerateLandmarks(reason: "a landmark is not finite")) {
            try Self.geometry.pose(for: poisoned)
        }
    }

    @Test(arguments: [
        ([UInt8](), "canonical mesh has 0 vertex values; expected a positive multiple of 5"),
        ([0x0a, 0x05, 0x1d], "field 1 claims 5 bytes; 1 remain"),
        ([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], "varint longer than 10 bytes"),
        ([0x0b], "field 1 has unsupported wire type 3"),
        ([0x0a, 0x02, 0x08, 0x01], "vertex type 1; only VERTEX_PT (0: x, y, z, u, v) is read"),
    ])
    func malformedMetadataThrows(bytes: [UInt8], reason: String) {
        #expect(throws: FaceGeometryError.malformedMetadata(reason: reason)) {
            try FaceGeometryMetadata(data: Data(bytes))
        }
    }

    @Test func truncatedMetadataNeverCrashes() throws {
        let data = try BundledModel.faceGeometry.load()
        // Cut inside the mesh the message is malformed; cut between basis entries it is a shorter basis.
        for length in stride(from: 0, to: data.count, by: 97) {
            if length < 19_053 {
                #expect(throws: FaceGeometryError.self) { try FaceGeometryMetadata(data: data.prefix(length)) }
            } else if let metadata = try? FaceGeometryMetadata(data: data.prefix(length)) {
                #expect(metadata.basis.count < 33)
            }
        }
    }
}
