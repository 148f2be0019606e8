import Foundation

/// Roll, yaw and pitch of a head in radians, estimated from the detector's six keypoints.
///
/// Signs are ML Kit's: roll (ML Kit's Z) is positive when the face is turned counter-clockwise in the
/// upright picture, yaw (Y) positive when the face turns towards the picture's right, pitch (X) positive
/// when the face looks up.
///
/// - Roll is exact geometry: the angle of the line from the right eye to the left eye.
/// - Yaw and pitch are estimates, calibrated to MediaPipe FaceLandmarker's fitted pose (its facial
///   transformation matrix, which ``HeadPose`` reads the same way). After undoing the roll, yaw is
///   atan(k·o), o the nose's offset from the ears' midpoint over half the ear distance (a head seen from
///   above with the nose in front of the ears), and pitch is atan((t₀ − h)/p), h the nose's height between
///   the eye line (0) and the mouth (1) (a nose in front of the eyes and mouth rises as the face looks up).
///   p is the nose tip's protrusion over the eye-to-mouth height in MediaPipe's canonical face model; k
///   and t₀ are least-squares fits of those angles to MediaPipe's on 25 scaled, turned, shifted and
///   mirrored copies of the two sample photos (`Scripts/make-landmark-fixtures.py`, `angles.json`).
///   There the estimates are off by 7° RMS (23° at most) in yaw and 5° RMS (13° at most) in pitch; on
///   photos held out of the fit (the four landmark fixture photos, the unmodified astronaut sample plain
///   and mirrored) by 12.5° and 8.5° at most. Only two subjects: the data spans yaw −67°…+69° but all of
///   its large yaw comes from the one turned face, and pitch only −21°…−9° (both look slightly down), so
///   pitch beyond that range rests on the canonical face's slope, not on measurement. The detector's
///   keypoints are coarse (the same face reads pitches 10° apart at different sizes), and beyond about
///   ±50° of yaw the far ear is hidden and its keypoint guessed. The landmarks (face mesh) stage replaces
///   these angles with a fitted pose.
package struct HeadAngles: Sendable, Hashable {
    package var roll: Double
    package var yaw: Double
    package var pitch: Double

    /// k: tan(yaw) per unit of the nose's offset from the ears' midpoint (over half their distance).
    /// Fitted to MediaPipe's yaw.
    static let earToNoseRatio = 0.690
    /// t₀: where the detector's nose keypoint sits between the eye line (0) and the mouth (1) when
    /// MediaPipe's pitch is zero. Fitted to MediaPipe's pitch.
    static let levelNoseHeight = 0.440
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
