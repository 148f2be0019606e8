import VisageImage

/// What the mesh stage adds to one face: its analysis (nil when the mesh model saw no face in its
/// region, or the region lay outside the picture) and, when asked for, its capture quality.
package struct LandmarkResult: Sendable, Hashable {
    package var analysis: FaceAnalysis?
    package var captureQuality: Float?
}

/// Face regions → mesh → blendshapes → pose and classification (→ capture quality) on one image.
package enum FaceLandmarkPipeline {
    /// Analyzes each region of `image`, whose stored pixels have `orientation` (the image's own when nil).
    /// A nil region gives an empty result. `refinement`, when given, reruns each mesh in the region its
    /// first pass gives (``MeshRefinement``).
    ///
    /// - Throws: ``FaceDetectionError/landmarks(reason:)`` when a model cannot be loaded or a stage fails,
    ///   ``FaceDetectionError/captureQuality(_:)`` when the quality of a found face cannot be measured.
    package static func analyze(
        _ image: Image, orientation: ImageOrientation?, regions: [MeshRegion?], captureQuality: Bool,
        refinement: MeshRefinement? = nil
    ) throws(FaceDetectionError) -> [LandmarkResult] {
        try analyze(RegionSource(image, orientation: orientation), regions: regions, captureQuality: captureQuality, refinement: refinement)
    }

    /// ``analyze(_:orientation:regions:captureQuality:)`` with the pixels of each region taken from
    /// `source`: a JPEG's source decodes only the part each face's warps reach, refined regions included.
    /// `keypoints`, when given, holds each region's detector keypoints (upright pixels), against which a
    /// refined mesh is checked (``MeshRefinement/keepsRefined(_:over:keypoints:)``); `keptShares`, when
    /// given, how far toward a kept refined mesh each face's reported mesh moves (1 when nil).
    package static func analyze(
        _ source: RegionSource, regions: [MeshRegion?], captureQuality: Bool, refinement: MeshRefinement? = nil,
        keypoints: [[SIMD2<Double>]]? = nil, keptShares: [Double]? = nil
    ) throws(FaceDetectionError) -> [LandmarkResult] {
        guard regions.contains(where: { $0 != nil }) else { return regions.map { _ in LandmarkResult() } }
        // Several faces share one window: the JPEG is read once.
        let present = regions.compactMap { $0 }
        let shared = present.count > 1 ? try source.window(coveringAll: present) : nil
        let runner = try FaceMeshRunner.shared()
        // Faces are independent, and so are passes of different faces: each pass borrows its own analyzer,
        // side by side on the cores (a pass, not a face, at a time), results in order.
        typealias Face = (window: ImageWindow, progress: MeshProgress)
        return try IndependentWork.chains(regions.count) { (index: Int, face: Face?) throws(FaceDetectionError) -> ChainStep<Face, LandmarkResult> in
            guard let region = regions[index] else { return .done(LandmarkResult()) }
            let window: ImageWindow, progress: MeshProgress
            if let face {
                (window, progress) = face
            } else {
                window = try source.window(covering: region, reusing: shared)
                progress = MeshProgress(window, region: region)
            }
            let step = try runner.withAnalyzer { analyzer throws(FaceDetectionError) in
                do {
                    return try analyzer.advance(
                        progress, refinement: refinement, keypoints: keypoints?[index], keptShare: keptShares?[index] ?? 1,
                        window: { try source.window(covering: $0, reusing: $1) })
                } catch {
                    throw .landmarks(reason: "\(error)")
                }
            }
            switch step {
            case .next(let next): return .next((window, next))
            case .done(let analysis):
                return .done(LandmarkResult(analysis: analysis, captureQuality: try quality(of: analysis, in: source, window: window, captureQuality: captureQuality)))
            }
        }
    }

    /// The capture quality of a found face when asked for (nil otherwise), `window` holding its first region.
    private static func quality(
        of analysis: FaceAnalysis?, in source: RegionSource, window: ImageWindow, captureQuality: Bool
    ) throws(FaceDetectionError) -> Float? {
        guard captureQuality, let analysis else { return nil }
        // The quality crop frames the mesh, not the detection: usually inside the same window.
        var qualityWindow = window
        if let qualityRegion = try? MeshRegion(tracking: analysis.mesh) {
            qualityWindow = try source.window(covering: qualityRegion, reusing: window)
        }
        do throws(CaptureQualityError) {
            return try CaptureQuality(
                window: qualityWindow, mesh: analysis.mesh, pose: analysis.pose, classification: analysis.classification
            ).score
        } catch {
            throw .captureQuality(error)
        }
    }

    /// The mesh regions of faces the detector found, each cut from its ``DetectedFace/meshDetection`` when
    /// it has one.
    package static func regions(for faces: [DetectedFace]) throws(FaceDetectionError) -> [MeshRegion?] {
        var regions: [MeshRegion?] = []
        for face in faces {
            do {
                regions.append(try MeshRegion(detection: face.meshDetection ?? face.detection, imageWidth: face.imageWidth, imageHeight: face.imageHeight))
            } catch {
                throw .landmarks(reason: error.description)
            }
        }
        return regions
    }

    /// The mesh regions of observations given by the caller (Vision's `inputFaceObservations`), in an
    /// upright picture of `width` × `height` pixels.
    ///
    /// A box must have a finite origin and a positive, finite size, and not be absurdly larger than the
    /// picture; a box that does not overlap the picture gets no region (its face has no landmarks). The
    /// eye keypoints set the rotation as the detector's do; when they are not finite the region is upright.
    ///
    /// - Throws: ``FaceDetectionError/invalidParameter(name:value:rule:)`` naming the observation.
    package static func regions(for observations: [FaceObservation], width: Int, height: Int) throws(FaceDetectionError) -> [MeshRegion?] {
        var regions: [MeshRegion?] = []
        for (index, observation) in observations.enumerated() {
            let box = observation.boundingBox
            let name = "inputFaceObservations[\(index)].boundingBox"
            guard [box.minX, box.minY, box.width, box.height].allSatisfy(\.isFinite) else {
                throw .invalidParameter(name: name, value: "\(box)", rule: "must have finite coordinates")
            }
            guard box.width > 0, box.height > 0 else {
                throw .invalidParameter(name: name, value: "\(box)", rule: "must have a positive width and height")
            }
            guard box.minX < 1, box.minX + box.width > 0, box.minY < 1, box.minY + box.height > 0 else {
                regions.append(nil)
                continue
            }
            let right = observation.keypoints.rightEye, left = observation.keypoints.leftEye
            let eyes = [right.x, right.y, left.x, left.y].allSatisfy(\.isFinite)
                ? (SIMD2(right.x, 1 - right.y), SIMD2(left.x, 1 - left.y)) : (SIMD2<Double>(0, 0), SIMD2<Double>(1, 0))
            do {
                regions.append(try MeshRegion(
                    normalizedBox: (box.minX, 1 - box.minY - box.height, box.width, box.height),
                    rightEye: eyes.0, leftEye: eyes.1, imageWidth: width, imageHeight: height))
            } catch {
                throw .invalidParameter(name: name, value: "\(box)", rule: error.description)
            }
        }
        return regions
    }
}

extension FaceLandmarkPipeline {
    /// The landmark and capture-quality requests' work: `inputs` (or the short-range detector's faces
    /// when nil) analyzed, in order.
    ///
    /// Callers' boxes are refined (``MeshRefinement``): they are often loose or shifted (another
    /// detector's, a tracker's, a hand-drawn one), and the mesh is only as good as its region. The
    /// detector's own faces are not, so the request's default output stays MediaPipe's FaceLandmarker's.
    static func observations(
        in image: Image, orientation: ImageOrientation?, inputs: [FaceObservation]?, captureQuality: Bool
    ) throws(FaceDetectionError) -> [FaceObservation] {
        let observations: [FaceObservation], regions: [MeshRegion?]
        if let inputs {
            let upright = (orientation ?? image.orientation).uprightSize(rawWidth: image.width, rawHeight: image.height)
            observations = inputs
            regions = try Self.regions(for: inputs, width: upright.width, height: upright.height)
        } else {
            let faces = try FaceDetectionPipeline.detect(in: image, orientation: orientation, mode: .fast)
            observations = faces.map(FaceObservation.init)
            regions = try Self.regions(for: faces)
        }
        let results = try analyze(
            image, orientation: orientation, regions: regions, captureQuality: captureQuality,
            refinement: inputs == nil ? nil : MeshRefinement())
        return zip(observations, results).map { $0.adding($1) }
    }
}
