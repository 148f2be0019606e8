import Foundation
import Testing
import Visage
import VisageModels

/// Capture quality ranks a sharp, frontal, well-lit, large face with open eyes above its degraded versions.
struct QualityTests {
    static let geometry = try! FaceGeometry(metadata: FaceGeometryMetadata(data: BundledModel.faceGeometry.load()))

    static func quality(_ image: Image, _ mesh: FaceMesh, blendshapesOf name: String = "astronaut.jpg") throws -> CaptureQuality {
        let blendshapes = try FaceBlendshapes(modelOutput: LandmarkFixtures.photo(name).blendshapeOutput)
        return try CaptureQuality(
            image: image, mesh: mesh, pose: geometry.pose(for: mesh),
            classification: FaceClassification(blendshapes: blendshapes, mesh: mesh))
    }

    static func astronaut() throws -> (Image, FaceMesh) {
        (try Image(contentsOf: LandmarkFixtures.url("astronaut.jpg")).converted(to: .rgb8), LandmarkFixtures.photo("astronaut.jpg").mesh)
    }

    /// A 5×5 box blur.
    static func blurred(_ image: Image) throws -> Image {
        let (w, h) = (image.width, image.height)
        let pixels = image.packedPixels
        var out = pixels
        for y in 0..<h {
            for x in 0..<w {
                for channel in 0..<3 {
                    var sum = 0, count = 0
                    for dy in -2...2 {
                        for dx in -2...2 {
                            let (sx, sy) = (x + dx, y + dy)
                            guard sx >= 0, sy >= 0, sx < w, sy < h else { continue }
                            sum += Int(pixels[(sy * w + sx) * 3 + channel])
                            count += 1
                        }
                    }
                    out[(y * w + x) * 3 + channel] = UInt8(sum / count)
                }
            }
        }
        return try Image(width: w, height: h, pixelFormat: .rgb8, pixels: out)
    }

    static func darkened(_ image: Image) throws -> Image {
        try Image(width: image.width, height: image.height, pixelFormat: .rgb8, pixels: image.packedPixels.map { $0 / 4 })
    }

    /// The mesh turned 35° about the vertical axis through its centre (x and z in pixels of the width).
    static func turned(_ mesh: FaceMesh) -> FaceMesh {
        let w = Float(mesh.imageWidth)
        let centre = mesh.points.reduce(SIMD3<Float>.zero, +) / Float(mesh.points.count)
        let (s, c) = (sin(Float(35) * .pi / 180), cos(Float(35) * .pi / 180))
        var result = mesh
        result.points = mesh.points.map { p in
            let x = (p.x - centre.x) * w, z = (p.z - centre.z) * w
            return SIMD3(centre.x + (c * x + s * z) / w, p.y, centre.z + (-s * x + c * z) / w)
        }
        return result
    }

    @Test func sharpFrontalFaceRanksAboveItsDegradedVersions() throws {
        let (image, mesh) = try Self.astronaut()
        let original = try Self.quality(image, mesh)
        #expect((0...1).contains(original.score))

        let blur = try Self.quality(Self.blurred(image), mesh)
        #expect(blur.sharpness < original.sharpness && blur.score < original.score, "blurred \(blur.score) vs \(original.score)")

        let dark = try Self.quality(Self.darkened(image), mesh)
        #expect(dark.exposure < original.exposure && dark.score < original.score, "darkened \(dark.score) vs \(original.score)")

        let turnedMesh = Self.turned(mesh)
        let turnedPose = try Self.geometry.pose(for: turnedMesh)
        #expect(abs(turnedPose.yaw) > 20 * .pi / 180, "the turned mesh fits a yaw of \(turnedPose.yaw)")
        let turned = try Self.quality(image, turnedMesh)
        #expect(turned.frontality < original.frontality && turned.score < original.score, "turned \(turned.score) vs \(original.score)")

        let small = try image.resized(width: 213, height: 160, method: .area)
        var smallMesh = mesh
        (smallMesh.imageWidth, smallMesh.imageHeight) = (213, 160)
        let shrunken = try Self.quality(small, smallMesh)
        #expect(shrunken.size < original.size && shrunken.score < original.score, "shrunken \(shrunken.score) vs \(original.score)")

        let closedImage = try Image(contentsOf: LandmarkFixtures.url("astronaut-eyes-closed.jpg"))
        let closed = try Self.quality(closedImage, LandmarkFixtures.photo("astronaut-eyes-closed.jpg").mesh, blendshapesOf: "astronaut-eyes-closed.jpg")
        #expect(closed.eyesOpen < original.eyesOpen && closed.score < original.score, "eyes closed \(closed.score) vs \(original.score)")
    }

    @Test func factorsCombineAsDocumented() throws {
        let (image, mesh) = try Self.astronaut()
        let q = try Self.quality(image, mesh)
        let expected = pow(q.sharpness, 0.30) * pow(q.frontality, 0.25) * pow(q.eyesOpen, 0.15) * pow(q.exposure, 0.15) * pow(q.size, 0.15)
        #expect(abs(q.score - expected) < 1e-5)
        // A sharp, frontal, open-eyed, well-lit face of 100 pixels or more scores high.
        #expect(q.score > 0.7, "astronaut scores \(q.score): \(q)")
    }

    @Test func meshOfAnotherPictureThrows() throws {
        let (image, mesh) = try Self.astronaut()
        var other = mesh
        other.imageWidth = 320
        #expect(throws: CaptureQualityError.imageMismatch(meshWidth: 320, meshHeight: 480, imageWidth: 640, imageHeight: 480)) {
            try Self.quality(image, other)
        }
    }
}
