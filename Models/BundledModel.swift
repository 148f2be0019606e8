import Foundation

/// The model files Visage ships, with the size and SHA-256 recorded in `Models/NOTICE`.
///
/// Loading checks both, so a missing, truncated or altered file fails with a clear error
/// instead of producing wrong faces.
public enum BundledModel: String, CaseIterable, Sendable {
    /// MediaPipe's short-range face detector (fast mode), 128×128 input.
    case faceDetectorShortRange = "face_detection_short_range.tflite"
    /// MediaPipe's full-range face detector, dense weights (accurate mode), 192×192 input.
    case faceDetectorFullRange = "face_detection_full_range.tflite"
    /// MediaPipe's full-range face detector with sparse float16 weights, 192×192 input: the model
    /// MediaPipe's Python `face_detection` (`model_selection=1`) runs. Other weights than the dense one.
    case faceDetectorFullRangeSparse = "face_detection_full_range_sparse.tflite"
    /// Face mesh v2: 478 points including irises, 256×256 input.
    case faceMesh = "face_landmarks_detector.tflite"
    /// 52 ARKit-named blendshape coefficients from 146 mesh points.
    case faceBlendshapes = "face_blendshapes.tflite"
    /// The canonical face model and Procrustes weights, a binary protobuf.
    case faceGeometry = "geometry_pipeline_metadata_landmarks.binarypb"

    public var fileName: String { rawValue }

    /// Size in bytes, as recorded in NOTICE.
    public var byteCount: Int {
        switch self {
        case .faceDetectorShortRange: 229_714
        case .faceDetectorFullRange: 1_083_984
        case .faceDetectorFullRangeSparse: 676_746
        case .faceMesh: 2_553_590
        case .faceBlendshapes: 955_312
        case .faceGeometry: 19_376
        }
    }

    /// SHA-256, as recorded in NOTICE.
    public var sha256: String {
        switch self {
        case .faceDetectorShortRange: "bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8"
        case .faceDetectorFullRange: "99bf9494d84f50acc6617d89873f71bf6635a841ea699c17cb3377f9507cfec3"
        case .faceDetectorFullRangeSparse: "2c3728e6da56f21e21a320433396fb06d40d9088f2247c05e5635a688d45dfe1"
        case .faceMesh: "c7d54204ce0448474c7f3fa9af494787c0965cbdd6f20fc72867e43046bd43d5"
        case .faceBlendshapes: "4f36dded049db18d76048567439b2a7f58f1daabc00d78bfe8f3ad396a2d2082"
        case .faceGeometry: "bdbcda96dfcb7da883da124aaa2c55dee49770d934f0fcc71747f8c21bdc75b4"
        }
    }

    /// Where the file is: the first place of ``ModelLocation/searchPath`` that holds it.
    /// - Throws: ``ModelFileError/notFound(model:searched:)`` listing the places searched.
    public var url: URL {
        get throws(ModelFileError) { try ModelLocation.url(for: self, searchPath: ModelLocation.searchPath) }
    }

    /// The file's bytes, found through ``ModelLocation`` and verified against the recorded size and checksum.
    public func load() throws(ModelFileError) -> Data {
        try Self.verified(contentsOf: url, as: self)
    }

    /// Reads `url` and checks it is the bytes of `model`.
    public static func verified(contentsOf url: URL, as model: BundledModel) throws(ModelFileError) -> Data {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw .missing(model: model.fileName, path: url.path)
        }
        guard data.count == model.byteCount else {
            throw .altered(model: model.fileName, reason: "\(data.count) bytes, expected \(model.byteCount)")
        }
        let digest = SHA256.hexDigest(of: data)
        guard digest == model.sha256 else {
            throw .altered(model: model.fileName, reason: "SHA-256 \(digest), expected \(model.sha256)")
        }
        return data
    }
}

/// Why a bundled model file could not be used.
public enum ModelFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No place of the search path holds the file (``ModelLocation``).
    case notFound(model: String, searched: [ModelLocation.Place])
    /// The file at `path` cannot be read.
    case missing(model: String, path: String)
    /// The file's size or SHA-256 is not the recorded one.
    case altered(model: String, reason: String)

    /// Where a good copy comes from: a user of the release tarball has no Scripts/ folder.
    private static let restoreHint = "restore the models from Visage's release archive (its share/visage folder), or in a source checkout run Scripts/fetch-models.sh"

    public var description: String {
        switch self {
        case .notFound(let model, let searched):
            "model file \(model) was not found in \(searched.map(\.description).joined(separator: ", ")); "
                + "set VISAGE_MODELS to a folder that holds the models, or install them in <folder of the executable>/../share/visage"
        case .missing(let model, let path):
            "model file \(model) is missing (looked in \(path)); " + Self.restoreHint
        case .altered(let model, let reason):
            "model file \(model) is not the bundled one: \(reason); " + Self.restoreHint
        }
    }
}
