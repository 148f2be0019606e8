import VisageModels

/// MediaPipe's face detectors and the constants of their graphs (MediaPipe 0.10.21,
/// `face_detection_short_range.pbtxt` / `face_detection_full_range.pbtxt`): the short-range model, and
/// the full-range graph with either of its two models.
package enum DetectorVariant: Sendable, Hashable, CaseIterable {
    /// 128×128 input, faces within about 2 m of a phone camera: fast mode.
    case shortRange
    /// 192×192 input, faces down to about 1/20 of the picture: accurate mode.
    case fullRange
    /// The full-range graph with the sparse model, the one MediaPipe's Python `face_detection`
    /// (`model_selection=1`) runs: the same input, anchors and thresholds as ``fullRange``, other weights,
    /// so other faces. Accurate mode adds the faces it alone finds (``SparseAddition``).
    case fullRangeSparse

    package var inputSize: Int {
        switch self {
        case .shortRange: 128
        case .fullRange, .fullRangeSparse: 192
        }
    }

    package var anchorOptions: SSDAnchorOptions {
        switch self {
        case .shortRange:
            SSDAnchorOptions(inputWidth: 128, inputHeight: 128, strides: [8, 16, 16, 16], interpolatedScaleAspectRatio: 1)
        case .fullRange, .fullRangeSparse:
            SSDAnchorOptions(inputWidth: 192, inputHeight: 192, strides: [4], interpolatedScaleAspectRatio: 0)
        }
    }

    /// `min_score_thresh` of the graph.
    package var scoreThreshold: Float {
        switch self {
        case .shortRange: 0.5
        case .fullRange, .fullRangeSparse: 0.6
        }
    }

    /// Whether the input is sampled as MediaPipe's CPU graph samples it, OpenCV's fixed-point warp into 8-bit
    /// pixels (``VisageImage/Image/warpAffineFixedPoint(into:width:height:transform:valueRange:border:)``),
    /// rather than the exact bilinear warp: the short-range model, whose faces are fast mode's and must stay
    /// MediaPipe's. On a picture that is not square the letterbox samples between pixels, and the two warps
    /// moved takeo.ppm's box by up to 0.3 px. The full-range models keep the exact warp that accurate mode's
    /// thresholds were set on (with the fixed-point one, `evaluate.py` lost einstein.jpg's darkened face).
    package var samplesAsOpenCV: Bool { self == .shortRange }

    /// IoU above which weighted NMS merges detections.
    package static let suppressionThreshold: Float = 0.3

    package var bundledModel: BundledModel {
        switch self {
        case .shortRange: .faceDetectorShortRange
        case .fullRange: .faceDetectorFullRange
        case .fullRangeSparse: .faceDetectorFullRangeSparse
        }
    }

    /// The decoder for this detector; its anchors are generated once per process.
    package var decoder: DetectionDecoder {
        switch self {
        case .shortRange: Self.shortRangeDecoder
        case .fullRange, .fullRangeSparse: Self.fullRangeDecoder
        }
    }

    private static let shortRangeDecoder = makeDecoder(.shortRange)
    private static let fullRangeDecoder = makeDecoder(.fullRange)

    private static func makeDecoder(_ variant: DetectorVariant) -> DetectionDecoder {
        DetectionDecoder(
            anchors: variant.anchorOptions.anchors(), inputWidth: variant.inputSize, inputHeight: variant.inputSize,
            scoreThreshold: variant.scoreThreshold)
    }
}
