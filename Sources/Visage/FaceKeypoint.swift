/// The six points the face detector locates, named from the subject's point of view: the right eye is
/// the one on the picture's left in a frontal face.
public enum FaceKeypoint: Int, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case rightEye
    case leftEye
    case noseTip
    case mouthCenter
    case rightEarTragion
    case leftEarTragion

    public var description: String {
        switch self {
        case .rightEye: "rightEye"
        case .leftEye: "leftEye"
        case .noseTip: "noseTip"
        case .mouthCenter: "mouthCenter"
        case .rightEarTragion: "rightEarTragion"
        case .leftEarTragion: "leftEarTragion"
        }
    }
}
