/// Where the eyeballs sit in MediaPipe's canonical face, and the person-independent constants the gaze
/// method relies on.
///
/// Each eyeball's centre is fixed in face space (the canonical face's frame, centimetres: x towards the
/// subject's left, y up, z out of the face): behind the centre of the eye opening (the mean of the 16
/// canonical vertices around that eye's lids) by one eyeball radius along −z. So a canonical eye that
/// looks straight ahead, along the face's +z, has its iris centre in the middle of the opening.
public struct EyeballModel: Sendable, Hashable {
    /// Mesh indices of one eye: the 16 points around the lids (from the corner on the subject's right,
    /// along the lower lid and back along the upper one) and the iris centre.
    public struct Eye: Sendable, Hashable {
        public let opening: [Int]
        public let iris: Int
    }

    /// The subject's right eye (on the left of a camera's picture): MediaPipe's first iris, 468.
    public static let rightEye = Eye(opening: [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246], iris: 468)
    /// The subject's left eye: the second iris, 473.
    public static let leftEye = Eye(opening: [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466], iris: 473)

    /// The eyeball's radius, centimetres: adults' eyes vary little around 12 mm (axial length ≈ 24 mm).
    public static let eyeballRadius = 1.2

    /// Eyeball centres in face space, centimetres.
    public let leftCentre: SIMD3<Double>
    public let rightCentre: SIMD3<Double>
    /// Each canonical eye opening's 16 lid vertices (``Eye/opening``'s order), face space, centimetres:
    /// what ``GazeEstimator`` compares the mesh's own eye openings with.
    public let leftOpening: [SIMD3<Double>]
    public let rightOpening: [SIMD3<Double>]

    public init(canonicalVertices v: [SIMD3<Double>]) {
        leftOpening = Self.leftEye.opening.map { v[$0] }
        rightOpening = Self.rightEye.opening.map { v[$0] }
        func centre(_ opening: [SIMD3<Double>]) -> SIMD3<Double> {
            opening.reduce(SIMD3<Double>(repeating: 0), +) / Double(opening.count) - SIMD3(0, 0, Self.eyeballRadius)
        }
        leftCentre = centre(leftOpening)
        rightCentre = centre(rightOpening)
    }
}
