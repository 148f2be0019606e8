import VisageImage

/// A face the pipeline found, in the upright picture, before it takes a public shape.
package struct DetectedFace: Sendable, Hashable {
    /// Normalized to the upright picture, origin top left.
    package var detection: Detection
    /// The upright picture's size in pixels.
    package var imageWidth: Int
    package var imageHeight: Int
    package var angles: HeadAngles

    /// The same face in a picture of `width` × `height` (the full size of a reduced decode): the normalized
    /// detection is kept, the pixel size and the angles its keypoints give follow the new size.
    package func reported(width: Int, height: Int) -> DetectedFace {
        var face = self
        (face.imageWidth, face.imageHeight) = (width, height)
        face.angles = HeadAngles(keypoints: face.pixelKeypoints)
        return face
    }

    /// Keypoints in upright pixels, origin top left.
    package var pixelKeypoints: [SIMD2<Double>] {
        detection.keypoints.map { SIMD2(Double($0.x) * Double(imageWidth), Double($0.y) * Double(imageHeight)) }
    }
}

/// Image → letterbox (and tiles) warped straight into the detector's input → engine → decoding →
/// weighted NMS → projection to the upright picture → angles.
package enum FaceDetectionPipeline {
    /// Pictures whose shorter side is below this many pixels skip the detector and hold no faces.
    ///
    /// The short-range model finds the sample face in pictures down to 9×9 pixels and in none of 270
    /// probes of 5…8 pixels (the face cropped loosely or tightly, three resampling filters); every run
    /// costs the same whatever the picture's size, so without this floor a stream of 2×2 frames would buy
    /// a whole detector run for every 12 bytes of input.
    package static let minimumImageSide = 8

    /// The score a turned view's detection needs (rotation search): three more views are three more
    /// chances of a false face. On the evaluation's aggregates (`Scripts/evaluate.py`) the turned views'
    /// false faces on the faceless photos scored 0.61–0.67, their real turned faces 0.76 and more.
    package static let turnedViewScoreThreshold: Float = 0.7

    /// Detects faces in `image`, whose stored pixels have `orientation` (the image's own when nil).
    ///
    /// `.fast` runs the short-range model once on the letterboxed picture, as MediaPipe's FaceDetector.
    /// `.accurate` runs the full-range model on the letterbox and on overlapping tiles fine enough for
    /// faces `minFaceSize` × the picture's width wide (see ``TilePlan``), and the short-range model on
    /// the letterbox, so it finds every face fast mode finds; everything is merged with weighted NMS.
    /// A tile's detections that touch one of its inner edges are dropped first: that face is cut, and
    /// lies whole in a neighbouring tile or is large enough for a coarser level. The passes run side by
    /// side on the cores (``IndependentWork``), so the result is the serial one, sooner.
    ///
    /// With `rotations`, the letterbox passes also run on the picture turned by 90°, 180° and 270°
    /// (``QuarterTurn``), mapped back to the upright picture. A face found in several views is kept from
    /// the view whose detection scores highest, where it stands upright (``QuarterTurn/mostConfident(_:threshold:)``),
    /// so its keypoints, and its roll, show its true in-plane angle; faces found in one view only are added.
    /// `stageEnded` is called with each stage's name as it ends (``StageProfile``).
    package static func detect(
        in image: Image, orientation: ImageOrientation? = nil, mode: FaceDetectorOptions.PerformanceMode,
        minFaceSize: Double = 0, rotations: Bool = false, stageEnded: (String) -> Void = { _ in }
    ) throws(FaceDetectionError) -> [DetectedFace] {
        let orientation = orientation ?? image.orientation
        let upright = orientation.uprightSize(rawWidth: image.width, rawHeight: image.height)
        guard min(upright.width, upright.height) >= minimumImageSide else { return [] }
        var detections: [Detection]
        switch mode {
        case .fast:
            let runner = try DetectorRunner.shared(.shortRange)
            stageEnded("detector lookup")
            detections = try runner.detect(
                in: image, orientation: orientation, window: .letterbox(width: upright.width, height: upright.height),
                stageEnded: stageEnded)
        case .accurate:
            let runner = try DetectorRunner.shared(.fullRange), shortRange = try DetectorRunner.shared(.shortRange)
            stageEnded("detector lookup")
            let windows = TilePlan(imageWidth: upright.width, imageHeight: upright.height, minFaceSize: minFaceSize).windows
            // The full-range model on every window, then the short-range model on the letterbox: independent
            // passes, run side by side and merged in this order.
            let passes = try IndependentWork.map(windows.count + 1) { index throws(FaceDetectionError) in
                index < windows.count
                    ? try runner.detect(in: image, orientation: orientation, window: windows[index])
                    : try shortRange.detect(in: image, orientation: orientation, window: windows[0])
            }
            var all: [Detection] = []
            for (window, found) in zip(windows, passes) {
                all += window == windows[0] ? found : found.filter { !window.cuts($0) }
            }
            all += passes[windows.count]
            detections = weightedNonMaxSuppression(all, threshold: DetectorVariant.suppressionThreshold)
            stageEnded("detector passes")
        }
        if rotations {
            let variants: [DetectorVariant] = mode == .fast ? [.shortRange] : [.shortRange, .fullRange]
            let turns = QuarterTurn.allCases.filter { $0 != .none }
            // Every turned view with every variant: independent passes, run side by side, kept in this order.
            let found = try IndependentWork.map(turns.count * variants.count) { index throws(FaceDetectionError) in
                let turn = turns[index / variants.count], variant = variants[index % variants.count]
                let view = turn.viewOrientation(of: orientation)
                let size = view.uprightSize(rawWidth: image.width, rawHeight: image.height)
                return try DetectorRunner.shared(variant).detect(
                    in: image, orientation: view, window: .letterbox(width: size.width, height: size.height)
                ).map(turn.uprightDetection)
            }
            var passes: [(turn: QuarterTurn, detections: [Detection])] = [(.none, detections)]
            for (position, turn) in turns.enumerated() {
                let views = found[position * variants.count ..< (position + 1) * variants.count].flatMap { $0 }
                    .filter { $0.score >= turnedViewScoreThreshold }
                passes.append((turn, variants.count > 1 ? weightedNonMaxSuppression(views, threshold: DetectorVariant.suppressionThreshold) : views))
            }
            detections = QuarterTurn.mostConfident(passes, threshold: DetectorVariant.suppressionThreshold)
            stageEnded("rotation search")
        }
        let faces = detections.map { detection in
            var face = DetectedFace(
                detection: detection, imageWidth: upright.width, imageHeight: upright.height,
                angles: HeadAngles(roll: 0, yaw: 0, pitch: 0))
            face.angles = HeadAngles(keypoints: face.pixelKeypoints)
            return face
        }
        stageEnded("keypoint angles")
        return faces
    }
}
