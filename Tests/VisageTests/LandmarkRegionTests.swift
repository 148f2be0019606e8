import Foundation
import Testing
import Visage

/// Geometry of the face features traced on MediaPipe's meshes of the (frontal) astronaut photos.
///
/// Points are read in the face's own frame: picture pixels turned so the outer eye corners are level,
/// x towards the picture's right (the subject's left), y down.
struct FaceFrame {
    let mesh: FaceMesh
    private let centre: SIMD2<Double>
    private let (sine, cosine): (Double, Double)

    init(_ mesh: FaceMesh) {
        self.mesh = mesh
        let eyes = mesh.pixel(263) - mesh.pixel(33)
        let angle = atan2(eyes.y, eyes.x)
        (sine, cosine) = (sin(-angle), cos(-angle))
        centre = (mesh.pixel(263) + mesh.pixel(33)) / 2
    }

    func level(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let d = p - centre
        return SIMD2(cosine * d.x - sine * d.y, sine * d.x + cosine * d.y)
    }

    func callAsFunction(_ index: Int) -> SIMD2<Double> { level(mesh.pixel(index)) }
    func callAsFunction(_ point: CGPoint) -> SIMD2<Double> { level(SIMD2(Double(point.x), Double(point.y))) }

    static func centroid(_ points: [SIMD2<Double>]) -> SIMD2<Double> { points.reduce(.zero, +) / Double(points.count) }

    /// Twice the signed area; positive for loops running clockwise on screen (y down).
    static func signedArea(_ loop: [SIMD2<Double>]) -> Double {
        zip(loop, loop.dropFirst() + [loop[0]]).reduce(0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }
    }

    static func contains(_ loop: [SIMD2<Double>], _ p: SIMD2<Double>) -> Bool {
        var inside = false
        for (a, b) in zip(loop, loop.dropFirst() + [loop[0]]) where (a.y > p.y) != (b.y > p.y) {
            if p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
        }
        return inside
    }
}

struct LandmarkRegionTests {
    static let frontal = ["astronaut.jpg", "astronaut-rolled.jpg", "astronaut-eyes-closed.jpg"]

    @Test(arguments: frontal)
    func regionsHaveTheirShapes(name: String) throws {
        let mesh = LandmarkFixtures.photo(name).mesh
        let landmarks = try FaceLandmarks2D(mesh: mesh)
        let closed = [landmarks.leftEye, landmarks.rightEye, landmarks.leftEyebrow, landmarks.rightEyebrow, landmarks.outerLips, landmarks.innerLips]
        let open = [landmarks.faceContour, landmarks.nose, landmarks.noseCrest, landmarks.medianLine]
        #expect(closed.allSatisfy { $0.pointsClassification == .closedPath })
        #expect(open.allSatisfy { $0.pointsClassification == .openPath })
        #expect([landmarks.leftPupil, landmarks.rightPupil, landmarks.allPoints].allSatisfy { $0.pointsClassification == .disconnected })
        #expect([landmarks.leftPupil, landmarks.rightPupil].allSatisfy { $0.pointCount == 1 })
        #expect(landmarks.allPoints.pointCount == (closed + open).reduce(2) { $0 + $1.pointCount })
        let frame = FaceFrame(mesh)
        let size = CGSize(width: mesh.imageWidth, height: mesh.imageHeight)
        for region in closed {
            let loop = region.pointsInImage(imageSize: size, origin: .upperLeft).map { frame($0) }
            #expect(Set(region.meshIndices).count == region.pointCount, "a loop visits each point once")
            #expect(FaceFrame.signedArea(loop) > 0, "\(region.meshIndices.prefix(3)) runs clockwise on screen")
        }
    }

    @Test(arguments: frontal)
    func featuresSitWhereTheSubjectsFaceHasThem(name: String) throws {
        let mesh = LandmarkFixtures.photo(name).mesh
        let landmarks = try FaceLandmarks2D(mesh: mesh)
        let frame = FaceFrame(mesh)
        let size = CGSize(width: mesh.imageWidth, height: mesh.imageHeight)
        func points(_ region: FaceLandmarkRegion) -> [SIMD2<Double>] { region.pointsInImage(imageSize: size, origin: .upperLeft).map { frame($0) } }
        // The frame's x follows the picture's: these photos are upright within 30°.
        #expect(mesh.pixel(263).x > mesh.pixel(33).x)
        let leftEye = points(landmarks.leftEye), rightEye = points(landmarks.rightEye)
        // The subject's left is on the picture's right.
        #expect(FaceFrame.centroid(leftEye).x > 0 && FaceFrame.centroid(rightEye).x < 0)
        #expect(FaceFrame.centroid(points(landmarks.leftEyebrow)).x > 0 && FaceFrame.centroid(points(landmarks.rightEyebrow)).x < 0)
        // Pupils between their eye's corners; eyebrows above their eyes.
        for (pupil, eye, brow) in [(landmarks.leftPupil, leftEye, landmarks.leftEyebrow), (landmarks.rightPupil, rightEye, landmarks.rightEyebrow)] {
            let p = points(pupil)[0]
            #expect(p.x > eye.map(\.x).min()! && p.x < eye.map(\.x).max()!)
            #expect(points(brow).allSatisfy { $0.y < FaceFrame.centroid(eye).y })
        }
        // Top to bottom: eyes, nose, lips; the crest runs down to the tip.
        let eyeLine = FaceFrame.centroid(leftEye + rightEye).y
        let lipsTop = points(landmarks.outerLips).map(\.y).min()!
        #expect(points(landmarks.nose).allSatisfy { $0.y > eyeLine && $0.y < lipsTop })
        let crest = points(landmarks.noseCrest).map(\.y)
        #expect(zip(crest, crest.dropFirst()).allSatisfy { $0 < $1 })
        // The median line runs down the middle of the face.
        let eyeSpan = FaceFrame.centroid(leftEye).x - FaceFrame.centroid(rightEye).x
        let median = points(landmarks.medianLine)
        #expect(median.allSatisfy { abs($0.x) < 0.15 * eyeSpan })
        #expect(zip(median, median.dropFirst()).allSatisfy { $0.y <= $1.y + 0.5 })
        // The inner lips lie inside the outer lips.
        let outer = points(landmarks.outerLips)
        #expect(points(landmarks.innerLips).allSatisfy { FaceFrame.contains(outer, $0) })
        // The jaw line goes from the picture's left over the chin to its right, below the eyes.
        let jaw = points(landmarks.faceContour)
        #expect(jaw.first!.x < -eyeSpan && jaw.last!.x > eyeSpan)
        #expect(jaw.allSatisfy { $0.y > eyeLine - 0.5 * eyeSpan })
        #expect(jaw.indices.max { jaw[$0].y < jaw[$1].y } == landmarks.faceContour.meshIndices.firstIndex(of: 152))
    }

    @Test func pointsAreNormalizedToTheFaceBoxWithTheOriginAtItsLowerLeft() throws {
        let mesh = LandmarkFixtures.photo("astronaut.jpg").mesh
        let box = NormalizedRect(x: 0.25, y: 0.5, width: 0.25, height: 0.25)
        let landmarks = try FaceLandmarks2D(mesh: mesh, boundingBox: box)
        let size = CGSize(width: 640, height: 480)
        for (point, index) in zip(landmarks.allPoints.points, landmarks.allPoints.meshIndices) {
            let pixel = mesh.pixel(index)
            #expect(abs(point.x - (pixel.x / 640 - 0.25) / 0.25) < 1e-9)
            #expect(abs(point.y - ((1 - pixel.y / 480) - 0.5) / 0.25) < 1e-9)
        }
        let back = landmarks.noseCrest.pointsInImage(imageSize: size, origin: .upperLeft)
        for (point, index) in zip(back, landmarks.noseCrest.meshIndices) {
            #expect(abs(Double(point.x) - mesh.pixel(index).x) < 1e-6 && abs(Double(point.y) - mesh.pixel(index).y) < 1e-6)
        }
        // The default is Vision's: pixels from the lower left.
        for (point, index) in zip(landmarks.noseCrest.pointsInImage(imageSize: size), landmarks.noseCrest.meshIndices) {
            #expect(abs(Double(point.x) - mesh.pixel(index).x) < 1e-6 && abs(Double(point.y) - (480 - mesh.pixel(index).y)) < 1e-6)
        }
        // Without a box the mesh's own bounds are used: every point in 0…1.
        let own = try FaceLandmarks2D(mesh: mesh)
        #expect(own.allPoints.points.allSatisfy { (0...1).contains($0.x) && (0...1).contains($0.y) })
    }

    @Test func badMeshesAndBoxesThrow() {
        let mesh = LandmarkFixtures.photo("astronaut.jpg").mesh
        let short = FaceMesh(points: Array(mesh.points.prefix(468)), presence: 1, imageWidth: 640, imageHeight: 480)
        #expect(throws: LandmarkError.landmarkCount(468, expected: 478)) { try FaceLandmarks2D(mesh: short) }
        #expect(throws: LandmarkError.self) { try FaceLandmarks2D(mesh: mesh, boundingBox: NormalizedRect(x: 0.2, y: 0.2, width: 0, height: 0.1)) }
        #expect(throws: LandmarkError.landmarkCount(468, expected: 478)) { try FaceContour.all(in: short) }
        #expect(throws: LandmarkError.landmarkCount(468, expected: 478)) { try FaceLandmark.all(in: short) }
    }
}
