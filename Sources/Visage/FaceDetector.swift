import VisageImage

/// Detects faces with ML Kit's API shape: `FaceDetector(options:)`, then `process(_:)` per image.
///
/// ```swift
/// let detector = FaceDetector(options: .init(performanceMode: .accurate, classificationMode: .all, minFaceSize: 0.02))
/// for face in try detector.process(image) { print(face.frame, face.headEulerAngleZ, face.smilingProbability ?? 0) }
/// ```
/// Models load once per process and are shared; a detector is a cheap value, safe to use from any task.
public struct FaceDetector: Sendable {
    public let options: FaceDetectorOptions

    public init(options: FaceDetectorOptions = .init()) {
        self.options = options
    }

    /// The faces in `image` at least `minFaceSize` of its width wide, by decreasing confidence.
    /// `orientation`, when given, replaces the image's own.
    /// - Throws: ``FaceDetectionError/invalidParameter(name:value:rule:)`` for a `minFaceSize` outside 0…1,
    ///   ``FaceDetectionError/model(name:reason:)`` when a detector model cannot be loaded,
    ///   ``FaceDetectionError/landmarks(reason:)`` when the face-mesh stage fails.
    public func process(_ image: Image, orientation: ImageOrientation? = nil) throws(FaceDetectionError) -> [Face] {
        try analyzedFaces(in: image, orientation: orientation).map(\.face)
    }

    /// A face with everything the mesh stage found, for callers that want more than ML Kit's shape
    /// (the command-line tool).
    package struct AnalyzedFace: Sendable {
        package var face: Face
        /// Nil when the mesh did not run (no mode asked for it) or found no face in the region.
        package var analysis: FaceAnalysis?
        package var captureQuality: Float?
    }

    /// ``process(_:orientation:)`` keeping the analysis. The mesh runs when a mode needs it, when `mesh`
    /// is true, or for `captureQuality`. With `maxFaces`, only that many of the most confident faces are
    /// kept, before the mesh runs.
    ///
    /// `uprightSize` reports the faces in a picture of that size instead of `image`'s: `image` is then a
    /// reduced decode of it (shrink on load), which only detection without the mesh may use; at 1/8 the
    /// detector samples it as the whole picture's points (``ReducedDecode``).
    package func analyzedFaces(
        in image: Image, orientation: ImageOrientation? = nil, mesh: Bool = false, captureQuality: Bool = false,
        maxFaces: Int? = nil, uprightSize: (width: Int, height: Int)? = nil
    ) throws(FaceDetectionError) -> [AnalyzedFace] {
        let reducedFrom = uprightSize.flatMap {
            ReducedDecode(image, orientation: orientation ?? image.orientation, uprightWidth: $0.width, uprightHeight: $0.height)
        }
        var faces = try detectedFaces(in: image, orientation: orientation, maxFaces: maxFaces, reducedFrom: reducedFrom)
        if let uprightSize {
            guard !(options.needsMesh || mesh || captureQuality) else {
                throw .invalidParameter(name: "uprightSize", value: "\(uprightSize)", rule: "needs detection without the mesh stage")
            }
            faces = faces.map { $0.reported(width: uprightSize.width, height: uprightSize.height) }
        }
        return try analyzed(faces, in: image, orientation: orientation, mesh: mesh, captureQuality: captureQuality)
    }

    /// The detection stage of ``analyzedFaces(in:orientation:mesh:captureQuality:maxFaces:uprightSize:)`` alone, so a
    /// caller can stop between the stages (the service checks its deadline and cancellation there).
    /// With `reducedFrom`, `image` is a reduced decode of that picture (shrink on load).
    package func detectedFaces(
        in image: Image, orientation: ImageOrientation? = nil, maxFaces: Int? = nil, reducedFrom: ReducedDecode? = nil
    ) throws(FaceDetectionError) -> [DetectedFace] {
        let minFaceSize = options.minFaceSize
        guard minFaceSize.isFinite, (0...1).contains(minFaceSize) else {
            throw .invalidParameter(name: "minFaceSize", value: "\(minFaceSize)", rule: "must be a fraction of the image width in 0…1")
        }
        let faces = try FaceDetectionPipeline.detect(
            in: image, orientation: orientation, mode: options.performanceMode, minFaceSize: minFaceSize,
            rotations: options.searchesRotations, reducedFrom: reducedFrom)
        return try kept(faces, maxFaces: maxFaces)
    }

    /// Fast mode's ``detectedFaces(in:orientation:maxFaces:reducedFrom:)`` on a baseline JPEG's full decode
    /// without making it (``FaceDetectionPipeline/detectFast(encodedJPEG:storedWidth:storedHeight:orientation:stageEnded:)``):
    /// the same faces. Nil in accurate mode, with the rotation search, or when the file is not one the
    /// sparse decoder reads.
    package func detectedFaces(
        encodedJPEG data: Data, storedWidth: Int, storedHeight: Int, orientation: ImageOrientation, maxFaces: Int? = nil
    ) throws(FaceDetectionError) -> [DetectedFace]? {
        guard options.performanceMode == .fast, !options.searchesRotations else { return nil }
        let minFaceSize = options.minFaceSize
        guard minFaceSize.isFinite, (0...1).contains(minFaceSize) else {
            throw .invalidParameter(name: "minFaceSize", value: "\(minFaceSize)", rule: "must be a fraction of the image width in 0…1")
        }
        guard let faces = try FaceDetectionPipeline.detectFast(
            encodedJPEG: data, storedWidth: storedWidth, storedHeight: storedHeight, orientation: orientation)
        else { return nil }
        return try kept(faces, maxFaces: maxFaces)
    }

    /// Faces at least `minFaceSize` wide, and with `maxFaces` only that many of the most confident.
    private func kept(_ found: [DetectedFace], maxFaces: Int?) throws(FaceDetectionError) -> [DetectedFace] {
        var faces = found.filter { Double($0.detection.width) >= options.minFaceSize }
        if let maxFaces {
            guard maxFaces >= 1 else {
                throw .invalidParameter(name: "maxFaces", value: "\(maxFaces)", rule: "must be at least 1")
            }
            faces = Array(faces.sorted { $0.detection.score > $1.detection.score }.prefix(maxFaces))
        }
        return faces
    }

    /// The mesh stage of ``analyzedFaces(in:orientation:mesh:captureQuality:maxFaces:uprightSize:)`` on faces
    /// ``detectedFaces(in:orientation:maxFaces:)`` found in the same image.
    package func analyzed(
        _ faces: [DetectedFace], in image: Image, orientation: ImageOrientation? = nil, mesh: Bool = false,
        captureQuality: Bool = false
    ) throws(FaceDetectionError) -> [AnalyzedFace] {
        try analyzed(faces, from: RegionSource(image, orientation: orientation), mesh: mesh, captureQuality: captureQuality)
    }

    /// The mesh stage on faces found in the picture `source` holds, its pixels taken per region.
    package func analyzed(
        _ faces: [DetectedFace], from source: RegionSource, mesh: Bool = false, captureQuality: Bool = false
    ) throws(FaceDetectionError) -> [AnalyzedFace] {
        guard options.needsMesh || mesh || captureQuality else { return faces.map { AnalyzedFace(face: Face($0)) } }
        let results = try FaceLandmarkPipeline.analyze(
            source, regions: try FaceLandmarkPipeline.regions(for: faces), captureQuality: captureQuality,
            refinement: options.refinesMeshRegions ? MeshRefinement() : nil, keypoints: faces.map(\.pixelKeypoints),
            // Accurate mode's faces that fast mode also found start in FaceLandmarker's region (152894a).
            keptShares: faces.map { $0.meshDetection == nil ? 1 : MeshRefinement.shareFromShortRangeRegion })
        return zip(faces, results).map { face, result in
            AnalyzedFace(
                face: Face(face, analysis: result.analysis, options: options), analysis: result.analysis,
                captureQuality: result.captureQuality)
        }
    }
}
