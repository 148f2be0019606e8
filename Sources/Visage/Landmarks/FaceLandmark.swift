import Foundation

/// One of ML Kit's ten face landmarks, located on the face mesh.
///
/// Left and right are the subject's, as ML Kit's. `position` is in pixels of the upright picture,
/// origin top left (ML Kit's `VisionPoint`).
public struct FaceLandmark: Sendable, Hashable {
    /// ML Kit's landmark types and the mesh point each is read from.
    ///
    /// | type | mesh index | |
    /// |---|---|---|
    /// | leftEye, rightEye | 473, 468 | iris centres |
    /// | leftEar, rightEar | 454, 234 | the face outline at ear level (the mesh has no ears) |
    /// | leftCheek, rightCheek | 425, 205 | cheek centres below the eyes |
    /// | noseBase | 2 | where the nose meets the upper lip, between the nostrils |
    /// | mouthLeft, mouthRight | 291, 61 | mouth corners |
    /// | mouthBottom | 17 | the lower lip's lower edge at the midline |
    public enum LandmarkType: String, Sendable, Hashable, CaseIterable, Codable {
        case leftEye, rightEye, leftEar, rightEar, leftCheek, rightCheek, noseBase, mouthLeft, mouthRight, mouthBottom

        public var meshIndex: Int {
            switch self {
            case .leftEye: 473
            case .rightEye: 468
            case .leftEar: 454
            case .rightEar: 234
            case .leftCheek: 425
            case .rightCheek: 205
            case .noseBase: 2
            case .mouthLeft: 291
            case .mouthRight: 61
            case .mouthBottom: 17
            }
        }
    }

    public let type: LandmarkType
    public let position: CGPoint

    /// Every landmark of `mesh`.
    ///
    /// - Throws: ``LandmarkError/landmarkCount(_:expected:)`` for a mesh without irises.
    public static func all(in mesh: FaceMesh) throws(LandmarkError) -> [FaceLandmark] {
        guard mesh.points.count >= FaceMesh.pointCount else {
            throw .landmarkCount(mesh.points.count, expected: FaceMesh.pointCount)
        }
        return LandmarkType.allCases.map { type in
            let p = mesh.pixel(type.meshIndex)
            return FaceLandmark(type: type, position: CGPoint(x: p.x, y: p.y))
        }
    }
}
