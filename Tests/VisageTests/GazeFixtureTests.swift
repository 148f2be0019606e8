import Foundation
import Testing
import Visage

/// The gaze method on MediaPipe FaceLandmarker 0.10.21's landmarks of real photos, and of the same
/// photo with its irises moved by a known number of pixels (synthetic: a local warp), written by
/// `Scripts/make-gaze-fixtures.py`. No network runs here.
struct GazeFixtureTests {
    struct Frame: Decodable {
        var name: String
        var width: Int
        var height: Int
        var synthetic: Bool
        /// The unmodified frame a warped one was made from.
        var of: String?
        /// Picture pixels each iris was moved by (y down): the subject's right eye, then left.
        var irisShift: [[Double]]?
        var landmarks: [Float]
        var blendshapes: [String: Float]

        var mesh: FaceMesh {
            let points = (0..<FaceMesh.pointCount).map { SIMD3(landmarks[3 * $0], landmarks[3 * $0 + 1], landmarks[3 * $0 + 2]) }
            return FaceMesh(points: points, presence: 1, imageWidth: width, imageHeight: height)
        }

        var gaze: FaceGaze {
            get throws {
                let mesh = self.mesh
                return try #require(GazeTests.estimator.gaze(mesh: mesh, pose: try PoseTests.geometry.pose(for: mesh)))
            }
        }

        /// MediaPipe's horizontal coefficient for an eye, positive towards the subject's left (face +x):
        /// the left eye looks out to the left, the right eye looks in to the left.
        func horizontal(left: Bool) -> Float {
            let b = blendshapes
            return left ? b["eyeLookOutLeft"]! - b["eyeLookInLeft"]! : b["eyeLookInRight"]! - b["eyeLookOutRight"]!
        }

        func vertical(left: Bool) -> Float {
            let side = left ? "Left" : "Right"
            return blendshapes["eyeLookUp" + side]! - blendshapes["eyeLookDown" + side]!
        }
    }

    struct Fixture: Decodable {
        var mediapipe: String
        var frames: [Frame]
    }

    static let fixture: Fixture = {
        let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("gaze/gaze.json")
        return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }()

    static func frame(_ name: String) -> Frame { fixture.frames.first { $0.name == name }! }

    /// Face-space yaw and pitch of an eye, degrees.
    static func faceAngles(_ eye: EyeGaze) -> (yaw: Double, pitch: Double) {
        let z = GazeTests.faceDirection(eye)
        return (atan2(z.x, z.z) * 180 / .pi, asin(z.y) * 180 / .pi)
    }

    /// Where MediaPipe's coefficients say clearly which way an eye looks (|out − in| or |up − down| at
    /// least 0.15), Visage's gaze turns the same way; and between a warped frame and its original, the
    /// changes have the same signs wherever MediaPipe's change by 0.1 or more.
    @Test func signsAgreeWithMediaPipesEyeLookBlendshapes() throws {
        var compared = 0
        for frame in Self.fixture.frames {
            let gaze = try frame.gaze
            for (left, eye) in [(true, gaze.left), (false, gaze.right)] {
                let angles = Self.faceAngles(eye)
                let (h, v) = (frame.horizontal(left: left), frame.vertical(left: left))
                if abs(h) >= 0.15 { #expect((angles.yaw > 0) == (h > 0), "\(frame.name) left: \(left): yaw \(angles.yaw)°, MediaPipe \(h)"); compared += 1 }
                if abs(v) >= 0.15 { #expect((angles.pitch > 0) == (v > 0), "\(frame.name) left: \(left): pitch \(angles.pitch)°, MediaPipe \(v)"); compared += 1 }
                guard let original = frame.of.map(Self.frame) else { continue }
                let before = Self.faceAngles(left ? try original.gaze.left : try original.gaze.right)
                let dh = h - original.horizontal(left: left), dv = v - original.vertical(left: left)
                if abs(dh) >= 0.1 { #expect((angles.yaw > before.yaw) == (dh > 0), "\(frame.name) left: \(left): Δyaw vs \(dh)"); compared += 1 }
                if abs(dv) >= 0.1 { #expect((angles.pitch > before.pitch) == (dv > 0), "\(frame.name) left: \(left): Δpitch vs \(dv)"); compared += 1 }
            }
        }
        #expect(compared >= 20, "only \(compared) comparisons")
    }

    /// Moving an iris by Δ pixels on an eyeball of radius r pixels (1.2 cm at the face's scale) turns the
    /// line of sight by about asin(Δ / r) for a face turned to the camera: the measured turn, which
    /// includes how well MediaPipe's iris point follows the warp, is within the bound below of that.
    @Test func movedIrisesTurnTheGazeByTheImpliedAngle() throws {
        let heightAtNear = 2 * tan(FaceGeometry.verticalFieldOfView * .pi / 360)
        var errors: [Double] = []
        for frame in Self.fixture.frames {
            guard let original = frame.of.map(Self.frame), let shifts = frame.irisShift else { continue }
            let (before, after) = (try original.gaze, try frame.gaze)
            for (index, (eyeBefore, eyeAfter)) in [(before.right, after.right), (before.left, after.left)].enumerated() {
                let shift = SIMD2(shifts[index][0], shifts[index][1])
                let pose = try PoseTests.geometry.pose(for: original.mesh)
                let scale = (0..<3).reduce(0.0) { $0 + pose.transform[4 * $1] * pose.transform[4 * $1] }.squareRoot()
                let radiusPixels = EyeballModel.eyeballRadius * scale / (-eyeBefore.origin.z * 100) / heightAtNear * Double(frame.height)
                // The direction's picture-plane part moves by shift / radius (y up in the camera frame).
                let d = eyeBefore.direction
                var moved = SIMD2(d.x + shift.x / radiusPixels, d.y - shift.y / radiusPixels)
                let length = (moved * moved).sum().squareRoot()
                if length > 1 { moved /= length }
                let expected = SIMD3(moved.x, moved.y, (1 - (moved * moved).sum()).squareRoot())
                let implied = GazeTests.angle(d, expected)
                let measured = GazeTests.angle(d, eyeAfter.direction)
                errors.append(abs(measured - implied))
                print("gaze: \(frame.name) eye \(index): shift \(shift) px, radius \(radiusPixels) px, implied \(implied)°, measured \(measured)°")
            }
        }
        let mean = errors.reduce(0, +) / Double(errors.count)
        print("gaze: moved irises, mean |measured − implied| \(mean)°, worst \(errors.max()!)°")
        #expect(errors.count == 16)
        #expect(mean < 7 && errors.max()! < 18, "mean \(mean)°, worst \(errors.max()!)°")
    }

    /// The astronaut looks into the camera; the cameraman looks down into his own camera.
    @Test func realPhotosLookWhereTheSubjectsLook() throws {
        let astronaut = try Self.frame("astronaut").gaze
        let camera = try Self.frame("camera").gaze
        print("gaze: astronaut \(astronaut.angleFromCamera)° from the camera (p \(astronaut.lookingAtCamera)); cameraman \(camera.angleFromCamera)° (p \(camera.lookingAtCamera))")
        #expect(astronaut.angleFromCamera < 15 && astronaut.lookingAtCamera > 0.6)
        #expect(camera.angleFromCamera > 20 && camera.lookingAtCamera < 0.1)
    }
}
