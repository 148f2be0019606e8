import Foundation
import Testing
import Visage

@Suite struct HeadAnglesTests {
    /// A symmetric frontal face in pixels (y down): eyes level, nose and mouth on the midline.
    static let frontal: [SIMD2<Double>] = [
        SIMD2(80, 100), SIMD2(120, 100), SIMD2(100, 122), SIMD2(100, 140), SIMD2(55, 110), SIMD2(145, 110),
    ]

    static func rotated(_ points: [SIMD2<Double>], counterClockwiseBy angle: Double) -> [SIMD2<Double>] {
        // Counter-clockwise on screen with y down.
        points.map { p in
            let d = p - SIMD2(100, 100)
            return SIMD2(100, 100) + SIMD2(d.x * cos(angle) + d.y * sin(angle), -d.x * sin(angle) + d.y * cos(angle))
        }
    }

    @Test(arguments: [-1.2, -0.3, 0.0, 0.25, 0.9, 2.5])
    func rollIsTheAngleOfTheEyeLine(angle: Double) {
        let angles = HeadAngles(keypoints: Self.rotated(Self.frontal, counterClockwiseBy: angle))
        #expect(abs(angles.roll - angle) < 1e-9)
    }

    @Test func frontalFaceHasNoYaw() {
        #expect(abs(HeadAngles(keypoints: Self.frontal).yaw) < 1e-12)
    }

    /// Roll must not leak into yaw and pitch: they are measured after levelling the eyes.
    @Test(arguments: [-0.7, 0.4])
    func yawAndPitchIgnoreRoll(angle: Double) {
        var turned = Self.frontal
        turned[FaceKeypoint.noseTip.rawValue].x += 12
        turned[FaceKeypoint.noseTip.rawValue].y -= 3
        let level = HeadAngles(keypoints: turned)
        let rolled = HeadAngles(keypoints: Self.rotated(turned, counterClockwiseBy: angle))
        #expect(abs(level.yaw - rolled.yaw) < 1e-9 && abs(level.pitch - rolled.pitch) < 1e-9)
    }

    /// ML Kit's signs: nose towards the picture's right is positive yaw; nose higher between eyes and
    /// mouth is looking up, positive pitch.
    @Test func signsFollowMLKit() {
        var right = Self.frontal
        right[FaceKeypoint.noseTip.rawValue].x += 15
        #expect(HeadAngles(keypoints: right).yaw > 0)
        var up = Self.frontal
        up[FaceKeypoint.noseTip.rawValue].y = 106
        var down = Self.frontal
        down[FaceKeypoint.noseTip.rawValue].y = 134
        #expect(HeadAngles(keypoints: up).pitch > 0)
        #expect(HeadAngles(keypoints: down).pitch < 0)
    }
}
