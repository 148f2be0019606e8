extension ARFaceAnchor {
    /// ARKit's names for the facial expression coefficients, with ARKit's raw values (`"eyeBlink_L"`,
    /// `"jawLeft"` …: the `…Left`/`…Right` names end in `_L`/`_R`, except the jaw's and the mouth's sideways
    /// moves).
    ///
    /// Left and right are the subject's, as ARKit's: `eyeBlinkLeft` is the subject's own left eye.
    public struct BlendShapeLocation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        public static let eyeBlinkLeft = BlendShapeLocation(rawValue: "eyeBlink_L")
        public static let eyeLookDownLeft = BlendShapeLocation(rawValue: "eyeLookDown_L")
        public static let eyeLookInLeft = BlendShapeLocation(rawValue: "eyeLookIn_L")
        public static let eyeLookOutLeft = BlendShapeLocation(rawValue: "eyeLookOut_L")
        public static let eyeLookUpLeft = BlendShapeLocation(rawValue: "eyeLookUp_L")
        public static let eyeSquintLeft = BlendShapeLocation(rawValue: "eyeSquint_L")
        public static let eyeWideLeft = BlendShapeLocation(rawValue: "eyeWide_L")
        public static let eyeBlinkRight = BlendShapeLocation(rawValue: "eyeBlink_R")
        public static let eyeLookDownRight = BlendShapeLocation(rawValue: "eyeLookDown_R")
        public static let eyeLookInRight = BlendShapeLocation(rawValue: "eyeLookIn_R")
        public static let eyeLookOutRight = BlendShapeLocation(rawValue: "eyeLookOut_R")
        public static let eyeLookUpRight = BlendShapeLocation(rawValue: "eyeLookUp_R")
        public static let eyeSquintRight = BlendShapeLocation(rawValue: "eyeSquint_R")
        public static let eyeWideRight = BlendShapeLocation(rawValue: "eyeWide_R")
        public static let jawForward = BlendShapeLocation(rawValue: "jawForward")
        public static let jawLeft = BlendShapeLocation(rawValue: "jawLeft")
        public static let jawRight = BlendShapeLocation(rawValue: "jawRight")
        public static let jawOpen = BlendShapeLocation(rawValue: "jawOpen")
        public static let mouthClose = BlendShapeLocation(rawValue: "mouthClose")
        public static let mouthFunnel = BlendShapeLocation(rawValue: "mouthFunnel")
        public static let mouthPucker = BlendShapeLocation(rawValue: "mouthPucker")
        public static let mouthLeft = BlendShapeLocation(rawValue: "mouthLeft")
        public static let mouthRight = BlendShapeLocation(rawValue: "mouthRight")
        public static let mouthSmileLeft = BlendShapeLocation(rawValue: "mouthSmile_L")
        public static let mouthSmileRight = BlendShapeLocation(rawValue: "mouthSmile_R")
        public static let mouthFrownLeft = BlendShapeLocation(rawValue: "mouthFrown_L")
        public static let mouthFrownRight = BlendShapeLocation(rawValue: "mouthFrown_R")
        public static let mouthDimpleLeft = BlendShapeLocation(rawValue: "mouthDimple_L")
        public static let mouthDimpleRight = BlendShapeLocation(rawValue: "mouthDimple_R")
        public static let mouthStretchLeft = BlendShapeLocation(rawValue: "mouthStretch_L")
        public static let mouthStretchRight = BlendShapeLocation(rawValue: "mouthStretch_R")
        public static let mouthRollLower = BlendShapeLocation(rawValue: "mouthRollLower")
        public static let mouthRollUpper = BlendShapeLocation(rawValue: "mouthRollUpper")
        public static let mouthShrugLower = BlendShapeLocation(rawValue: "mouthShrugLower")
        public static let mouthShrugUpper = BlendShapeLocation(rawValue: "mouthShrugUpper")
        public static let mouthPressLeft = BlendShapeLocation(rawValue: "mouthPress_L")
        public static let mouthPressRight = BlendShapeLocation(rawValue: "mouthPress_R")
        public static let mouthLowerDownLeft = BlendShapeLocation(rawValue: "mouthLowerDown_L")
        public static let mouthLowerDownRight = BlendShapeLocation(rawValue: "mouthLowerDown_R")
        public static let mouthUpperUpLeft = BlendShapeLocation(rawValue: "mouthUpperUp_L")
        public static let mouthUpperUpRight = BlendShapeLocation(rawValue: "mouthUpperUp_R")
        public static let browDownLeft = BlendShapeLocation(rawValue: "browDown_L")
        public static let browDownRight = BlendShapeLocation(rawValue: "browDown_R")
        public static let browInnerUp = BlendShapeLocation(rawValue: "browInnerUp")
        public static let browOuterUpLeft = BlendShapeLocation(rawValue: "browOuterUp_L")
        public static let browOuterUpRight = BlendShapeLocation(rawValue: "browOuterUp_R")
        public static let cheekPuff = BlendShapeLocation(rawValue: "cheekPuff")
        public static let cheekSquintLeft = BlendShapeLocation(rawValue: "cheekSquint_L")
        public static let cheekSquintRight = BlendShapeLocation(rawValue: "cheekSquint_R")
        public static let noseSneerLeft = BlendShapeLocation(rawValue: "noseSneer_L")
        public static let noseSneerRight = BlendShapeLocation(rawValue: "noseSneer_R")
        public static let tongueOut = BlendShapeLocation(rawValue: "tongueOut")

        /// The 52 locations an anchor reports, keyed by their Swift member names (which are also the names
        /// of MediaPipe's blendshape outputs).
        static let byMemberName: [String: BlendShapeLocation] = [
            "eyeBlinkLeft": .eyeBlinkLeft,
            "eyeLookDownLeft": .eyeLookDownLeft,
            "eyeLookInLeft": .eyeLookInLeft,
            "eyeLookOutLeft": .eyeLookOutLeft,
            "eyeLookUpLeft": .eyeLookUpLeft,
            "eyeSquintLeft": .eyeSquintLeft,
            "eyeWideLeft": .eyeWideLeft,
            "eyeBlinkRight": .eyeBlinkRight,
            "eyeLookDownRight": .eyeLookDownRight,
            "eyeLookInRight": .eyeLookInRight,
            "eyeLookOutRight": .eyeLookOutRight,
            "eyeLookUpRight": .eyeLookUpRight,
            "eyeSquintRight": .eyeSquintRight,
            "eyeWideRight": .eyeWideRight,
            "jawForward": .jawForward,
            "jawLeft": .jawLeft,
            "jawRight": .jawRight,
            "jawOpen": .jawOpen,
            "mouthClose": .mouthClose,
            "mouthFunnel": .mouthFunnel,
            "mouthPucker": .mouthPucker,
            "mouthLeft": .mouthLeft,
            "mouthRight": .mouthRight,
            "mouthSmileLeft": .mouthSmileLeft,
            "mouthSmileRight": .mouthSmileRight,
            "mouthFrownLeft": .mouthFrownLeft,
            "mouthFrownRight": .mouthFrownRight,
            "mouthDimpleLeft": .mouthDimpleLeft,
            "mouthDimpleRight": .mouthDimpleRight,
            "mouthStretchLeft": .mouthStretchLeft,
            "mouthStretchRight": .mouthStretchRight,
            "mouthRollLower": .mouthRollLower,
            "mouthRollUpper": .mouthRollUpper,
            "mouthShrugLower": .mouthShrugLower,
            "mouthShrugUpper": .mouthShrugUpper,
            "mouthPressLeft": .mouthPressLeft,
            "mouthPressRight": .mouthPressRight,
            "mouthLowerDownLeft": .mouthLowerDownLeft,
            "mouthLowerDownRight": .mouthLowerDownRight,
            "mouthUpperUpLeft": .mouthUpperUpLeft,
            "mouthUpperUpRight": .mouthUpperUpRight,
            "browDownLeft": .browDownLeft,
            "browDownRight": .browDownRight,
            "browInnerUp": .browInnerUp,
            "browOuterUpLeft": .browOuterUpLeft,
            "browOuterUpRight": .browOuterUpRight,
            "cheekPuff": .cheekPuff,
            "cheekSquintLeft": .cheekSquintLeft,
            "cheekSquintRight": .cheekSquintRight,
            "noseSneerLeft": .noseSneerLeft,
            "noseSneerRight": .noseSneerRight,
            "tongueOut": .tongueOut,
        ]
    }
}
