/// One of the facial expression coefficients MediaPipe's blendshape model estimates, named as ARKit's
/// `ARFaceAnchor.BlendShapeLocation` names them.
///
/// Left and right are the **subject's**: `eyeBlinkLeft` is the subject's left eye, which is on the
/// picture's right in an unmirrored photo of a frontal face (ARKit's convention too). ARKit's
/// `tongueOut` has no counterpart in the model. Raw values are the cases' model output indices
/// (index 0 of the output is MediaPipe's `_neutral`, kept apart in ``FaceBlendshapes/neutral``).
public enum Blendshape: Int, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case browDownLeft = 1
    case browDownRight
    case browInnerUp
    case browOuterUpLeft
    case browOuterUpRight
    case cheekPuff
    case cheekSquintLeft
    case cheekSquintRight
    case eyeBlinkLeft
    case eyeBlinkRight
    case eyeLookDownLeft
    case eyeLookDownRight
    case eyeLookInLeft
    case eyeLookInRight
    case eyeLookOutLeft
    case eyeLookOutRight
    case eyeLookUpLeft
    case eyeLookUpRight
    case eyeSquintLeft
    case eyeSquintRight
    case eyeWideLeft
    case eyeWideRight
    case jawForward
    case jawLeft
    case jawOpen
    case jawRight
    case mouthClose
    case mouthDimpleLeft
    case mouthDimpleRight
    case mouthFrownLeft
    case mouthFrownRight
    case mouthFunnel
    case mouthLeft
    case mouthLowerDownLeft
    case mouthLowerDownRight
    case mouthPressLeft
    case mouthPressRight
    case mouthPucker
    case mouthRight
    case mouthRollLower
    case mouthRollUpper
    case mouthShrugLower
    case mouthShrugUpper
    case mouthSmileLeft
    case mouthSmileRight
    case mouthStretchLeft
    case mouthStretchRight
    case mouthUpperUpLeft
    case mouthUpperUpRight
    case noseSneerLeft
    case noseSneerRight

    /// ARKit's name, e.g. `eyeBlinkLeft`.
    public var description: String { Self.names[rawValue - 1] }

    /// The case for an ARKit name, nil for names the model does not estimate.
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self.init(rawValue: index + 1)
    }

    private static let names = [
        "browDownLeft", "browDownRight", "browInnerUp", "browOuterUpLeft", "browOuterUpRight", "cheekPuff",
        "cheekSquintLeft", "cheekSquintRight", "eyeBlinkLeft", "eyeBlinkRight", "eyeLookDownLeft",
        "eyeLookDownRight", "eyeLookInLeft", "eyeLookInRight", "eyeLookOutLeft", "eyeLookOutRight",
        "eyeLookUpLeft", "eyeLookUpRight", "eyeSquintLeft", "eyeSquintRight", "eyeWideLeft", "eyeWideRight",
        "jawForward", "jawLeft", "jawOpen", "jawRight", "mouthClose", "mouthDimpleLeft", "mouthDimpleRight",
        "mouthFrownLeft", "mouthFrownRight", "mouthFunnel", "mouthLeft", "mouthLowerDownLeft",
        "mouthLowerDownRight", "mouthPressLeft", "mouthPressRight", "mouthPucker", "mouthRight",
        "mouthRollLower", "mouthRollUpper", "mouthShrugLower", "mouthShrugUpper", "mouthSmileLeft",
        "mouthSmileRight", "mouthStretchLeft", "mouthStretchRight", "mouthUpperUpLeft", "mouthUpperUpRight",
        "noseSneerLeft", "noseSneerRight",
    ]
}
