/// What a face record carries beyond the detector's box, confidence, angles and keypoints.
///
/// The names are the CLI's flags (`--landmarks` …) and the service's `features` values, one list for both.
public struct FaceFeatures: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Vision's landmark regions and ML Kit's ten landmarks (`landmarks`, `mlkitLandmarks`).
    public static let landmarks = FaceFeatures(rawValue: 1 << 0)
    /// ML Kit's fifteen face contours (`contours`).
    public static let contours = FaceFeatures(rawValue: 1 << 1)
    /// Smiling and eye-open probabilities and the blendshapes (`smilingProbability` …, `blendshapes`).
    public static let classify = FaceFeatures(rawValue: 1 << 2)
    /// The capture quality, 0…1 (`captureQuality`).
    public static let quality = FaceFeatures(rawValue: 1 << 3)
    /// The 478-point mesh in pixels (`mesh`).
    public static let mesh = FaceFeatures(rawValue: 1 << 4)

    /// Every feature with its public name, in documentation order.
    public static let named: [(name: String, feature: FaceFeatures)] = [
        ("landmarks", .landmarks), ("contours", .contours), ("classify", .classify), ("quality", .quality), ("mesh", .mesh),
    ]

    /// The features named in `names`; throws for an unknown name, listing the valid ones.
    public init(names: some Sequence<some StringProtocol>) throws(FaceDetectionError) {
        self = []
        for name in names {
            guard let entry = Self.named.first(where: { $0.name == name }) else {
                throw .invalidParameter(
                    name: "features", value: "\(name)",
                    rule: "must be one of " + Self.named.map(\.name).joined(separator: ", "))
            }
            insert(entry.feature)
        }
    }

    /// The public names of the features in this set.
    public var names: [String] { Self.named.filter { contains($0.feature) }.map(\.name) }

    /// Every feature but the box needs the face mesh; its fitted pose then gives the angles.
    public var needsMesh: Bool { !isEmpty }
}
