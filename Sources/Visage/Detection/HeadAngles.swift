import Foundation

/// Roll, yaw and pitch of a head in radians, estimated from the detector's six keypoints.
///
/// Signs are ML Kit's: roll (ML Kit's Z) is positive when the face is turned counter-clockwise in the
/// upright picture, yaw (Y) positive when the face turns towards the picture's right, pitch (X) positive
/// when the face looks up.
///
/// - Roll is exact geometry: the angle of the line from the right eye to the left eye.
/// - Yaw and pitch are estimates. After undoing the roll, a head seen from above is modelled with its ear
///   tragions ±r apart sideways and the nose tip d in front of them, so the nose's offset from the ears'
///   midpoint over half the ear distance is (d/r)·tan(yaw); r/d = 0.63 from adult anthropometric averages
///   (tragion half-breadth 7.2 cm, tragion to nose tip 11.5 cm). Seen from the side, the nose tip sits
///   t₀ = 0.57 of the way from the eye line down to the mouth on a level face and 2.5 cm in front of the
///   eyes and mouth, which are 7 cm apart; looking up by `pitch` moves it up by 2.5/7·tan(pitch) of that
///   distance.
///   These hold for an average adult face, not the individual one, and the detector's keypoints are
///   coarse (on the sample photos the same frontal face read 5° and 20° of pitch at two sizes): expect
///   errors of 15° and more, growing with the angle, and no meaning beyond about ±60° where the far ear
///   and eye are hidden and the detector guesses their keypoints. The landmarks (face mesh) stage
///   replaces them with a fitted pose. Not measured against ground truth.
package struct HeadAngles: Sendable, Hashable {
    package var roll: Double
    package var yaw: Double
    package var pitch: Double

    /// Tragion half-breadth over tragion-to-nose-tip depth.
    static let earToNoseRatio = 0.63
    /// Where the nose tip sits between the eye line (0) and the mouth (1) on a level face.
    static let levelNoseHeight = 0.57
    /// Nose-tip protrusion over the eye-to-mouth height.
    static let noseProtrusionRatio = 2.5 / 7

    package init(roll: Double, yaw: Double, pitch: Double) {
        (self.roll, self.yaw, self.pitch) = (roll, yaw, pitch)
    }

    /// The angles from keypoints in ``FaceKeypoint`` order, in upright pixels (origin top left, y down).
    /// Pixels, not normalized coordinates, so a non-square picture does not skew the angles.
    package init(keypoints: [SIMD2<Double>]) {
        precondition(keypoints.count == FaceKeypoint.allCases.count, "\(keypoints.count) keypoints, expected 6")
        let rightEye = keypoints[FaceKeypoint.rightEye.rawValue], leftEye = keypoints[FaceKeypoint.leftEye.rawValue]
        let eyes = leftEye - rightEye
        roll = atan2(-eyes.y, eyes.x)
        // Undo the roll: turn every point clockwise (on screen) by `roll` around the eyes' midpoint.
        let centre = (leftEye + rightEye) / 2
        let (sine, cosine) = (sin(roll), cos(roll))
        let level = keypoints.map { point -> SIMD2<Double> in
            let p = point - centre
            return SIMD2(p.x * cosine - p.y * sine, p.x * sine + p.y * cosine)
        }
        let nose = level[FaceKeypoint.noseTip.rawValue]
        let rightEar = level[FaceKeypoint.rightEarTragion.rawValue], leftEar = level[FaceKeypoint.leftEarTragion.rawValue]
        let halfEars = (leftEar.x - rightEar.x) / 2
        let noseOffset = nose.x - (leftEar.x + rightEar.x) / 2
        yaw = atan2(noseOffset * Self.earToNoseRatio, halfEars)
        // The eye line is y = 0 after levelling.
        let mouth = level[FaceKeypoint.mouthCenter.rawValue]
        if mouth.y > 0 {
            let noseHeight = nose.y / mouth.y
            pitch = atan((Self.levelNoseHeight - noseHeight) / Self.noseProtrusionRatio)
        } else {
            pitch = 0  // mouth at or above the eyes: no usable vertical baseline
        }
    }
}
