import Foundation
import Testing
import Visage

/// The gaze method on meshes made from the canonical face with known head poses and eye rotations
/// (exact answers), and on MediaPipe's landmarks of real photos against its eyeLook blendshapes.
struct GazeTests {
    static let estimator = GazeEstimator.bundled!
    static let geometry = PoseTests.geometry

    /// R = Rz(roll) · Ry(yaw) · Rx(−pitch), HeadPose's convention; angles in degrees.
    static func rotation(roll: Double, yaw: Double, pitch: Double) -> [[Double]] {
        let (r, y, p) = (roll * .pi / 180, yaw * .pi / 180, -pitch * .pi / 180)
        let rz = [[cos(r), -sin(r), 0], [sin(r), cos(r), 0], [0, 0, 1]]
        let ry = [[cos(y), 0, sin(y)], [0, 1, 0], [-sin(y), 0, cos(y)]]
        let rx = [[1, 0, 0], [0, cos(p), -sin(p)], [0, sin(p), cos(p)]]
        func mul(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
            (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
        }
        return mul(rz, mul(ry, rx))
    }

    /// Unit direction of an eye turned by `yaw` (towards +x) and `pitch` (towards +y) from +z, degrees.
    static func direction(yaw: Double, pitch: Double) -> SIMD3<Double> {
        let (y, p) = (yaw * .pi / 180, pitch * .pi / 180)
        return SIMD3(sin(y) * cos(p), sin(p), cos(y) * cos(p))
    }

    struct Scene {
        var rotation: [[Double]]
        var translation: SIMD3<Double>
        var width = 640, height = 480

        var pose: HeadPose {
            HeadPose(transform: (0..<3).flatMap { rotation[$0] + [translation[$0]] } + [0, 0, 0, 1])
        }

        func toCamera(_ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3((0..<3).map { r in rotation[r][0] * v.x + rotation[r][1] * v.y + rotation[r][2] * v.z }) + translation
        }

        /// A face mesh as MediaPipe reports one: the canonical face posed and seen through the virtual
        /// camera, normalized x and y, z the depth relative to the face's mean on x's scale; the irises
        /// on eyeballs turned to face-space directions `left` and `right`.
        /// `moved` shifts each eye (face space, centimetres; left, then right): its 16 lid points and,
        /// when `withEyeballs`, its eyeball (so its iris) too, as a face whose eyes sit elsewhere than the
        /// canonical face's would show.
        func mesh(
            left: SIMD3<Double>, right: SIMD3<Double>, irisNoise: (SIMD2<Double>, SIMD2<Double>) = (.zero, .zero),
            moved: (SIMD3<Double>, SIMD3<Double>) = (.zero, .zero), withEyeballs: Bool = true
        ) -> FaceMesh {
            let model = GazeTests.estimator.model
            let radius = EyeballModel.eyeballRadius
            var vertices = GazeTests.geometry.metadata.canonicalVertices
            for (eye, shift) in [(EyeballModel.leftEye, moved.0), (EyeballModel.rightEye, moved.1)] {
                for index in eye.opening { vertices[index] += shift }
            }
            var points = vertices.map(toCamera)
            for (centre, direction, shift) in [(model.rightCentre, right, moved.1), (model.leftCentre, left, moved.0)] {
                let iris = centre + (withEyeballs ? shift : .zero) + radius * direction
                points.append(toCamera(iris))
                for offset in [SIMD3(0.58, 0, 0), SIMD3(0, 0.58, 0), SIMD3(-0.58, 0, 0), SIMD3(0, -0.58, 0)] {
                    points.append(toCamera(iris + offset))
                }
            }
            let heightAtNear = 2 * tan(FaceGeometry.verticalFieldOfView * .pi / 360)
            let widthAtNear = Double(width) * heightAtNear / Double(height)
            let meanDistance = points.reduce(0) { $0 - $1.z } / Double(points.count)
            var mesh = points.map { p -> SIMD3<Float> in
                let distance = -p.z
                return SIMD3(
                    Float(0.5 + p.x / distance / widthAtNear), Float(0.5 - p.y / distance / heightAtNear),
                    Float((distance - meanDistance) / meanDistance / widthAtNear))
            }
            for (index, noise) in [(468, irisNoise.0), (473, irisNoise.1)] {
                mesh[index].x += Float(noise.x / Double(width))
                mesh[index].y += Float(noise.y / Double(height))
            }
            return FaceMesh(points: mesh, presence: 1, imageWidth: width, imageHeight: height)
        }
    }

    static func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        acos(max(-1, min(1, (a * b).sum() / ((a * a).sum() * (b * b).sum()).squareRoot()))) * 180 / .pi
    }

    static func faceDirection(_ eye: EyeGaze) -> SIMD3<Double> {
        SIMD3(eye.transform[2], eye.transform[6], eye.transform[10])
    }

    /// Head poses × eye rotations, degrees: (roll, yaw, pitch, eye yaw, eye pitch).
    static let cases: [(Double, Double, Double, Double, Double)] = [
        (0, 0, 0, 0, 0), (0, 0, 0, 20, 0), (0, 0, 0, -20, 0), (0, 0, 0, 0, 15), (0, 0, 0, 0, -25),
        (10, 25, -10, 15, 10), (-15, -35, 15, -10, -20), (0, 45, 0, -30, 5), (20, -10, 25, 25, -15),
    ]

    /// With the true pose, each eye's direction comes back exactly (to float precision of the mesh).
    @Test(arguments: cases)
    func recoversEyeRotationsWithTheTruePose(head: (Double, Double, Double, Double, Double)) throws {
        let scene = Scene(rotation: Self.rotation(roll: head.0, yaw: head.1, pitch: head.2), translation: SIMD3(4, -3, -55))
        let truth = Self.direction(yaw: head.3, pitch: head.4)
        let gaze = try #require(Self.estimator.gaze(mesh: scene.mesh(left: truth, right: truth), pose: scene.pose))
        for eye in [gaze.left, gaze.right] {
            #expect(Self.angle(Self.faceDirection(eye), truth) < 0.05, "\(head): face-space error")
            #expect(Self.angle(eye.direction, scene.toCamera(truth) - scene.translation) < 0.05, "\(head): camera error")
            let expected = scene.toCamera(truth) - scene.translation
            #expect(abs(eye.yaw - atan2(expected.x, expected.z) * 180 / .pi) < 0.05)
            #expect(abs(eye.pitch - asin(expected.y) * 180 / .pi) < 0.05)
        }
        #expect(Self.angle(gaze.direction, scene.toCamera(truth) - scene.translation) < 0.05)
    }

    /// With the pose Visage fits to the same mesh, the error is what the fit adds.
    @Test(arguments: cases)
    func recoversEyeRotationsWithTheFittedPose(head: (Double, Double, Double, Double, Double)) throws {
        let scene = Scene(rotation: Self.rotation(roll: head.0, yaw: head.1, pitch: head.2), translation: SIMD3(4, -3, -55))
        let truth = Self.direction(yaw: head.3, pitch: head.4)
        let mesh = scene.mesh(left: truth, right: truth)
        let gaze = try #require(Self.estimator.gaze(mesh: mesh, pose: try Self.geometry.pose(for: mesh)))
        for eye in [gaze.left, gaze.right] {
            #expect(Self.angle(eye.direction, scene.toCamera(truth) - scene.translation) < 1, "\(head)")
        }
    }

    /// Eyes that each look a different way are told apart (left is the subject's left).
    @Test func eyesAreTheSubjects() throws {
        let scene = Scene(rotation: Self.rotation(roll: 0, yaw: 0, pitch: 0), translation: SIMD3(0, 0, -50))
        let left = Self.direction(yaw: 20, pitch: 0), right = Self.direction(yaw: -10, pitch: 5)
        let gaze = try #require(Self.estimator.gaze(mesh: scene.mesh(left: left, right: right), pose: scene.pose))
        #expect(Self.angle(Self.faceDirection(gaze.left), left) < 0.05)
        #expect(Self.angle(Self.faceDirection(gaze.right), right) < 0.05)
        #expect(gaze.left.transform[3] > 0.02 && gaze.right.transform[3] < -0.02, "eyeball centres: +x is the subject's left")
    }

    /// Iris points off by up to a pixel (a 640×480 picture, face 55 cm away): the error it causes.
    @Test func pixelNoiseCostsAFewDegrees() throws {
        let scene = Scene(rotation: Self.rotation(roll: 0, yaw: 10, pitch: 0), translation: SIMD3(0, 0, -55))
        let truth = Self.direction(yaw: 10, pitch: -5)
        var worst = 0.0
        for noise in [SIMD2(1.0, 0), SIMD2(-1.0, 0), SIMD2(0, 1.0), SIMD2(0, -1.0), SIMD2(0.7, 0.7)] {
            let mesh = scene.mesh(left: truth, right: truth, irisNoise: (noise, noise))
            let gaze = try #require(Self.estimator.gaze(mesh: mesh, pose: scene.pose))
            worst = max(worst, Self.angle(Self.faceDirection(gaze.left), truth))
        }
        // The eyeball's radius is 1.2 cm / 55 cm / 1.2256 (the near plane's height) × 480 ≈ 8.5 px here,
        // so one pixel across it is asin(1 / 8.5) ≈ 6.8°.
        print("gaze: one pixel of iris error costs at most \(worst)°")
        #expect(worst > 4 && worst < 8, "worst \(worst)°")
    }

    /// Eyes aimed at the camera (the origin) are looking at it; 30° off, they are not.
    @Test func lookingAtCameraFollowsTheAngle() throws {
        let scene = Scene(rotation: Self.rotation(roll: 5, yaw: 30, pitch: -10), translation: SIMD3(10, 5, -60))
        let model = Self.estimator.model
        let middle = scene.toCamera((model.leftCentre + model.rightCentre) / 2)
        // The camera's direction in face space (the rotation's transpose).
        let toCamera = -middle / (middle * middle).sum().squareRoot()
        let face = SIMD3((0..<3).map { c in (0..<3).reduce(0.0) { $0 + scene.rotation[$1][c] * toCamera[$1] } })
        let at = try #require(Self.estimator.gaze(mesh: scene.mesh(left: face, right: face), pose: scene.pose))
        #expect(at.angleFromCamera < 1.5, "\(at.angleFromCamera)°")
        #expect(at.lookingAtCamera > 0.95)
        // lookAtPoint lies along the line of sight, as far as the camera: near the camera in face space.
        let camera = SIMD3((0..<3).map { c in (0..<3).reduce(0.0) { $0 + scene.rotation[$1][c] * -scene.translation[$1] } }) / 100
        #expect(Self.angle(at.lookAtPoint - (model.leftCentre + model.rightCentre) / 200, camera - (model.leftCentre + model.rightCentre) / 200) < 1.5)
        let away = Self.direction(yaw: 30, pitch: 0) + face
        let off = try #require(Self.estimator.gaze(mesh: scene.mesh(left: away / (away * away).sum().squareRoot(), right: away / (away * away).sum().squareRoot()), pose: scene.pose))
        #expect(off.angleFromCamera > 10 && off.lookingAtCamera < 0.3, "\(off.angleFromCamera)° \(off.lookingAtCamera)")
    }

    /// ARKit's conventions: each eye transform is a rotation with +z along the line of sight, at the
    /// eyeball's centre; lookAtPoint's x grows as the subject looks to their own left.
    @Test func eyeTransformsAreARKits() throws {
        let scene = Scene(rotation: Self.rotation(roll: 0, yaw: 0, pitch: 0), translation: SIMD3(0, 0, -50))
        var previous = -Double.infinity
        for yaw in [-20.0, 0, 20] {
            let d = Self.direction(yaw: yaw, pitch: 10)
            let gaze = try #require(Self.estimator.gaze(mesh: scene.mesh(left: d, right: d), pose: scene.pose))
            #expect(gaze.lookAtPoint.x > previous)
            previous = gaze.lookAtPoint.x
            #expect(gaze.lookAtPoint.y > 0 && gaze.lookAtPoint.z > 0.3)
            let t = gaze.left.transform
            for (i, j) in [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)] {
                let dot = (0..<3).reduce(0.0) { $0 + t[4 * $1 + i] * t[4 * $1 + j] }
                #expect(abs(dot - (i == j ? 1 : 0)) < 1e-9)
            }
            #expect(t[4] == 0, "x stays horizontal")
            // The canonical eyeball centre, to the float precision of the mesh's lid points that place it.
            #expect(abs(t[3] - Self.estimator.model.leftCentre.x / 100) < 1e-6)
        }
    }

    /// Eyes 4 mm further apart than the canonical face's, looking straight ahead: each eyeball is placed
    /// by its own eye opening, so neither eye reads as turned outwards (the canonical spacing read each
    /// eye about 10° out: asin(2 mm / 12 mm)). Likewise one eye 1 mm higher than the other, as a rolled
    /// pose fit shows them: no pitch apart (5° each way before).
    @Test(arguments: [(SIMD3(0.2, 0, 0), SIMD3(-0.2, 0, 0)), (SIMD3(-0.15, 0, 0), SIMD3(0.15, 0, 0)), (SIMD3(0, 0.05, 0), SIMD3(0, -0.05, 0))])
    func eyesArePlacedByTheirOwnOpenings(moved: (SIMD3<Double>, SIMD3<Double>)) throws {
        for head in [(0.0, 0.0, 0.0), (10, 25, -10), (-15, -35, 15)] {
            let scene = Scene(rotation: Self.rotation(roll: head.0, yaw: head.1, pitch: head.2), translation: SIMD3(3, 2, -50))
            let ahead = SIMD3(0.0, 0, 1)
            let gaze = try #require(Self.estimator.gaze(mesh: scene.mesh(left: ahead, right: ahead, moved: moved), pose: scene.pose))
            for eye in [gaze.left, gaze.right] {
                #expect(Self.angle(Self.faceDirection(eye), ahead) < 0.1, "\(head) \(moved): \(Self.faceAngles(eye))")
            }
            // The eye transforms' origins follow the eyeballs.
            #expect(abs(gaze.left.transform[3] - (Self.estimator.model.leftCentre.x + moved.0.x) / 100) < 1e-5)
            #expect(abs(gaze.right.transform[7] - (Self.estimator.model.rightCentre.y + moved.1.y) / 100) < 1e-5)
        }
    }

    /// What the two eyes' openings share, an offset of both against the posed face, is left to the pose:
    /// both lids moved alike without the eyes change nothing.
    @Test func bothOpeningsMovedAlikeChangeNothing() throws {
        let scene = Scene(rotation: Self.rotation(roll: 5, yaw: 20, pitch: -5), translation: SIMD3(-4, 1, -55))
        let (left, right) = (Self.direction(yaw: 10, pitch: -5), Self.direction(yaw: 14, pitch: -5))
        let still = try #require(Self.estimator.gaze(mesh: scene.mesh(left: left, right: right), pose: scene.pose))
        let shift = SIMD3(0.2, -0.1, 0)
        let moved = try #require(Self.estimator.gaze(
            mesh: scene.mesh(left: left, right: right, moved: (shift, shift), withEyeballs: false), pose: scene.pose))
        for (a, b) in [(still.left, moved.left), (still.right, moved.right)] {
            #expect(Self.angle(a.direction, b.direction) < 0.01)
        }
        #expect(abs(still.angleFromCamera - moved.angleFromCamera) < 0.01)
    }

    static func faceAngles(_ eye: EyeGaze) -> (yaw: Double, pitch: Double) {
        let d = faceDirection(eye)
        return (atan2(d.x, d.z) * 180 / .pi, asin(max(-1, min(1, d.y))) * 180 / .pi)
    }

    @Test func meshWithoutIrisesHasNoGaze() {
        let scene = Scene(rotation: Self.rotation(roll: 0, yaw: 0, pitch: 0), translation: SIMD3(0, 0, -50))
        var mesh = scene.mesh(left: SIMD3(0, 0, 1), right: SIMD3(0, 0, 1))
        mesh.points.removeLast(10)
        #expect(Self.estimator.gaze(mesh: mesh, pose: scene.pose) == nil)
        var poisoned = scene.mesh(left: SIMD3(0, 0, 1), right: SIMD3(0, 0, 1))
        poisoned.points[473].x = .nan
        #expect(Self.estimator.gaze(mesh: poisoned, pose: scene.pose) == nil)
    }
}
