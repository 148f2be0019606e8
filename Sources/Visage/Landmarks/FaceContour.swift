import Foundation

/// One of ML Kit's fifteen face contours, traced on the face mesh with ML Kit's point counts.
///
/// Left and right are the subject's. Points are in pixels of the upright picture, origin top left. In an
/// upright frontal face, lines run from the picture's left to its right, the eyes and the face outline are
/// loops running clockwise on screen, and the face outline starts at the top of the forehead.
public struct FaceContour: Sendable, Hashable {
    /// ML Kit's contour types and the mesh points each is read from.
    ///
    /// | type | points | mesh indices |
    /// |---|---|---|
    /// | face | 36 | 10 338 297 332 284 251 389 356 454 323 361 288 397 365 379 378 400 377 152 148 176 149 150 136 172 58 132 93 234 127 162 21 54 103 67 109 (MediaPipe's face oval) |
    /// | leftEyebrowTop, leftEyebrowBottom | 5, 5 | 336 296 334 293 300; 285 295 282 283 276 |
    /// | rightEyebrowTop, rightEyebrowBottom | 5, 5 | 70 63 105 66 107; 46 53 52 65 55 |
    /// | leftEye, rightEye | 16, 16 | 362 398 384 385 386 387 388 466 263 249 390 373 374 380 381 382; 33 246 161 160 159 158 157 173 133 155 154 153 145 144 163 7 |
    /// | upperLipTop | 11 | 61 185 40 39 37 0 267 269 270 409 291 (corner to corner) |
    /// | upperLipBottom | 9 | 191 80 81 82 13 312 311 310 415 |
    /// | lowerLipTop | 9 | 95 88 178 87 14 317 402 318 324 |
    /// | lowerLipBottom | 9 | 146 91 181 84 17 314 405 321 375 |
    /// | noseBridge | 2 | 168 4 (between the eyes, above the tip) |
    /// | noseBottom | 3 | 64 2 294 (one nostril wing, below the tip, the other) |
    /// | leftCheek, rightCheek | 1, 1 | 425; 205 |
    public enum ContourType: String, Sendable, Hashable, CaseIterable, Codable {
        case face, leftEyebrowTop, leftEyebrowBottom, rightEyebrowTop, rightEyebrowBottom, leftEye, rightEye
        case upperLipTop, upperLipBottom, lowerLipTop, lowerLipBottom, noseBridge, noseBottom, leftCheek, rightCheek

        public var meshIndices: [Int] {
            switch self {
            case .face: [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109]
            case .leftEyebrowTop: [336, 296, 334, 293, 300]
            case .leftEyebrowBottom: [285, 295, 282, 283, 276]
            case .rightEyebrowTop: [70, 63, 105, 66, 107]
            case .rightEyebrowBottom: [46, 53, 52, 65, 55]
            case .leftEye: FaceLandmarks2D.leftEyeIndices
            case .rightEye: FaceLandmarks2D.rightEyeIndices
            case .upperLipTop: [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291]
            case .upperLipBottom: [191, 80, 81, 82, 13, 312, 311, 310, 415]
            case .lowerLipTop: [95, 88, 178, 87, 14, 317, 402, 318, 324]
            case .lowerLipBottom: [146, 91, 181, 84, 17, 314, 405, 321, 375]
            case .noseBridge: [168, 4]
            case .noseBottom: [64, 2, 294]
            case .leftCheek: [425]
            case .rightCheek: [205]
            }
        }
    }

    public let type: ContourType
    public let points: [CGPoint]

    /// Every contour of `mesh`.
    ///
    /// - Throws: ``LandmarkError/landmarkCount(_:expected:)`` for a mesh without irises.
    public static func all(in mesh: FaceMesh) throws(LandmarkError) -> [FaceContour] {
        guard mesh.points.count >= FaceMesh.pointCount else {
            throw .landmarkCount(mesh.points.count, expected: FaceMesh.pointCount)
        }
        return ContourType.allCases.map { type in
            FaceContour(type: type, points: type.meshIndices.map { let p = mesh.pixel($0); return CGPoint(x: p.x, y: p.y) })
        }
    }
}
