import Foundation
import Testing
import Visage

/// ``MeshRefinement``: the rule, and the mesh it gives from a box that sits off the face, against MediaPipe
/// FaceLandmarker 0.10.21's mesh of the same photo from its own detection (`Fixtures/landmarks/`).
@Suite(.serialized)
struct MeshRefinementTests {
    static let base = MeshRegion(centerX: 100, centerY: 100, side: 200, rotation: 0.1, imageWidth: 400, imageHeight: 300)

    static func moved(dx: Double = 0, dy: Double = 0, scale: Double = 1, turn: Double = 0) -> MeshRegion {
        var region = base
        (region.centerX, region.centerY) = (region.centerX + dx, region.centerY + dy)
        region.side *= scale
        region.rotation += turn
        return region
    }

    /// A 400 × 300 mesh with every point at `rest` and the points standing for the detector's keypoints
    /// (``MeshRefinement/keypointLandmarks``) at `features`, in pixels.
    static func mesh(features: [SIMD2<Double>], rest: SIMD2<Double> = SIMD2(200, 150)) -> FaceMesh {
        var points = [SIMD3<Float>](repeating: SIMD3(Float(rest.x / 400), Float(rest.y / 300), 0), count: FaceMesh.pointCount)
        for (indices, feature) in zip(MeshRefinement.keypointLandmarks, features) {
            for index in indices { points[index] = SIMD3(Float(feature.x / 400), Float(feature.y / 300), 0) }
        }
        return FaceMesh(points: points, presence: 0.99, imageWidth: 400, imageHeight: 300)
    }

    /// A refined mesh is kept when its eyes, nose and mouth lie at least as near the detector's keypoints
    /// as the first mesh's, and dropped when they lie further; only the first four keypoints count.
    @Test func refinedMeshIsKeptWhenItAgreesWithTheKeypoints() {
        let keypoints: [SIMD2<Double>] = [SIMD2(150, 100), SIMD2(250, 100), SIMD2(200, 150), SIMD2(200, 200), SIMD2(0, 0), SIMD2(400, 300)]
        let exact = Self.mesh(features: Array(keypoints.prefix(4)))
        let shifted = Self.mesh(features: keypoints.prefix(4).map { $0 + SIMD2(8, 0) })
        let further = Self.mesh(features: keypoints.prefix(4).map { $0 + SIMD2(-6, 9) })
        #expect(MeshRefinement.keypointDistance(of: exact, to: keypoints) < 1e-3)
        #expect(abs(MeshRefinement.keypointDistance(of: shifted, to: keypoints) - 8) < 1e-3)
        #expect(MeshRefinement.keepsRefined(exact, over: shifted, keypoints: keypoints))
        #expect(!MeshRefinement.keepsRefined(shifted, over: exact, keypoints: keypoints))
        #expect(MeshRefinement.keepsRefined(shifted, over: further, keypoints: keypoints))
        #expect(!MeshRefinement.keepsRefined(further, over: shifted, keypoints: keypoints))
        #expect(MeshRefinement.keepsRefined(shifted, over: shifted, keypoints: keypoints))
        // Eye corners are averaged: moving one corner of each eye by 8 px moves the eye by 4.
        var corners = exact
        for index in [133, 362] { corners.points[index].x += Float(8.0 / 400) }
        #expect(abs(MeshRefinement.keypointDistance(of: corners, to: keypoints) - 2) < 1e-3)
    }

    /// A kept refined mesh from FaceLandmarker's region is reported a quarter of the way from the first
    /// mesh, point by point, with the first mesh's presence; a share of 1 reports the refined mesh.
    @Test func keptMeshMovesAShareOfTheWayFromTheFirst() {
        let features: [SIMD2<Double>] = [SIMD2(150, 100), SIMD2(250, 100), SIMD2(200, 150), SIMD2(200, 200)]
        let first = Self.mesh(features: features)
        var refined = Self.mesh(features: features.map { $0 + SIMD2(8, -4) }, rest: SIMD2(212, 150))
        refined.presence = 0.7
        let share = MeshRefinement.shareFromShortRangeRegion
        #expect(share > 0 && share < 1)
        let blended = MeshRefinement.blend(first, toward: refined, share: share)
        #expect(blended.points.count == first.points.count)
        #expect(blended.presence == first.presence)
        for index in [33, 133, 1, 61, 10] {
            let expected = first.pixel(index) + share * (refined.pixel(index) - first.pixel(index))
            #expect(((blended.pixel(index) - expected) * (blended.pixel(index) - expected)).sum().squareRoot() < 1e-3)
        }
        #expect(abs(blended.pixel(10).x - (200 + 12 * share)) < 1e-3)
        #expect(MeshRefinement.blend(first, toward: refined, share: 1) == refined)
    }

    @Test func regionsWithinAFewPercentAreKept() {
        let rule = MeshRefinement()
        #expect(!rule.differs(Self.base, from: Self.base))
        #expect(!rule.differs(Self.moved(dx: 6, dy: 6, scale: 1.04, turn: 0.04), from: Self.base))
        #expect(rule.differs(Self.moved(dx: 11), from: Self.base))
        #expect(rule.differs(Self.moved(dy: -11), from: Self.base))
        #expect(rule.differs(Self.moved(scale: 1.06), from: Self.base))
        #expect(rule.differs(Self.moved(scale: 0.94), from: Self.base))
        #expect(rule.differs(Self.moved(turn: 0.06), from: Self.base))
        // Angles wrap: −π and π are the same turn.
        var a = Self.base, b = Self.base
        (a.rotation, b.rotation) = (-.pi + 0.01, .pi - 0.01)
        #expect(!rule.differs(a, from: b))
    }

    /// Mean distance in pixels between two meshes' points.
    static func meanDistance(_ a: FaceMesh, _ b: FaceMesh) -> Double {
        (0..<FaceMesh.pointCount).map { index in
            let d = a.pixel(index) - b.pixel(index)
            return (d * d).sum().squareRoot()
        }.reduce(0, +) / Double(FaceMesh.pointCount)
    }

    /// A box shifted by a fifth of the face and 40 % too large (as another detector's or a caller's):
    /// one pass lands several pixels off MediaPipe's mesh, refinement brings it back to within a pixel or so.
    @Test func refinementRecoversFromABoxOffTheFace() throws {
        let photo = LandmarkFixtures.photo("astronaut.jpg")
        let image = try Image(contentsOf: LandmarkFixtures.url(photo.image))
        let good = try photo.region
        var off = good
        (off.centerX, off.centerY, off.side) = (good.centerX + 0.2 * good.side / 1.5, good.centerY - 0.1 * good.side / 1.5, good.side * 1.4)
        let analyzer = try FaceMeshAnalyzer()
        let once = try #require(try analyzer.analyze(image, region: off))
        let refined = try #require(try analyzer.analyze(image, region: off, refinement: MeshRefinement()))
        let (onceError, refinedError) = (Self.meanDistance(once.mesh, photo.mesh), Self.meanDistance(refined.mesh, photo.mesh))
        #expect(refinedError < onceError / 2, "one pass \(onceError) px, refined \(refinedError) px")
        #expect(refinedError < 1.5, "refined \(refinedError) px")
        #expect(refined.region != off)
        // No refinement asked: the single pass, bit for bit.
        #expect(try analyzer.analyze(image, region: off, refinement: nil) == once)
    }

    /// Loose callers' boxes are refined by `DetectFaceLandmarksRequest`; without input boxes it is
    /// MediaPipe's FaceLandmarker (refinement off), tested in ``FaceLandmarksRequestTests``.
    @Test func landmarkRequestRefinesGivenBoxes() async throws {
        let photo = LandmarkFixtures.photo("astronaut.jpg")
        let url = LandmarkFixtures.url(photo.image)
        let detected = try #require(try await DetectFaceRectanglesRequest().perform(on: url).first)
        let box = detected.boundingBox
        let loose = FaceObservation(
            confidence: 1,
            boundingBox: NormalizedRect(x: box.minX - 0.3 * box.width, y: box.minY + 0.15 * box.height, width: box.width * 1.5, height: box.height * 1.5),
            roll: detected.roll, yaw: detected.yaw, pitch: detected.pitch, keypoints: detected.keypoints)
        var request = DetectFaceLandmarksRequest()
        request.inputFaceObservations = [loose]
        let analysis = try #require(try await request.perform(on: url).first?.analysis)
        let error = Self.meanDistance(analysis.mesh, photo.mesh)
        #expect(error < 1.5, "\(error) px from MediaPipe's mesh")
    }
}
