import Foundation
import VisageImage
import VisageModels
import VisageNN

/// Runs the face-mesh pipeline on one face: region → 256×256 warp → mesh v2 → blendshapes → head pose
/// and classification, as MediaPipe's tasks FaceLandmarker does per face.
///
/// Holds one interpreter per model (their scratch memory is reused between calls), so an analyzer is
/// not for concurrent use: give each task its own. The models load and are verified once, at `init`.
///
/// ```swift
/// let analyzer = try FaceMeshAnalyzer()
/// let region = try MeshRegion(normalizedBox: box, rightEye: eyes.0, leftEye: eyes.1, imageWidth: w, imageHeight: h)
/// let face = try analyzer.analyze(image, region: region)   // nil when no face is in the region
/// face?.blendshapes[.eyeBlinkLeft]; face?.pose.headEulerAngleY
/// ```
public final class FaceMeshAnalyzer {
    private let mesh: Interpreter
    private let blendshapes: Interpreter
    private let geometry: FaceGeometry

    /// Loads the bundled mesh, blendshape and geometry models.
    ///
    /// - Parameter options: one thread by default, since callers already run faces, frames and
    ///   images side by side; `.init()` lets each network choose its own thread count.
    /// - Throws: ``LandmarkError/model(reason:)`` when a model file is missing, altered or not runnable.
    public init(options: InterpreterOptions = .init(threads: 1)) throws(LandmarkError) {
        do {
            mesh = try Interpreter(model: Model(data: BundledModel.faceMesh.load()), options: options)
            blendshapes = try Interpreter(model: Model(data: BundledModel.faceBlendshapes.load()), options: options)
            geometry = FaceGeometry(metadata: try FaceGeometryMetadata(data: BundledModel.faceGeometry.load()))
        } catch {
            throw .model(reason: "\(error)")
        }
        guard mesh.model.inputs.first?.elementCount == 3 * MeshRegion.tensorSize * MeshRegion.tensorSize,
              mesh.model.outputs.count >= 2, mesh.model.outputs[0].elementCount == 3 * FaceMesh.pointCount,
              mesh.model.outputs[1].elementCount == 1,
              blendshapes.model.inputs.first?.elementCount == BlendshapeInput.count,
              blendshapes.model.outputs.first?.elementCount == FaceBlendshapes.outputCount
        else { throw .model(reason: "the bundled models do not have mesh v2's and the blendshape model's tensor shapes") }
    }

    /// The mesh model's raw outputs for `region` of `image` (its stored pixels; orientation honoured).
    ///
    /// - Throws: ``LandmarkError/model(reason:)`` when the engine fails.
    public func meshOutputs(_ image: Image, region: MeshRegion) throws(LandmarkError) -> (landmarks: [Float], presenceLogit: Float) {
        writeMeshInput(of: ImageWindow(image), region: region)
        try runMesh()
        return (mesh.output(0), mesh.output(1).first ?? .nan)
    }

    /// The blendshape coefficients of a mesh.
    public func blendshapes(for faceMesh: FaceMesh) throws -> FaceBlendshapes {
        try writeBlendshapeInput(for: faceMesh)
        try runBlendshapes()
        return try readBlendshapes()
    }

    /// Analyzes the face in `region` of `image`; nil when the mesh model finds no face there
    /// (presence ≤ 0.5, as MediaPipe).
    ///
    /// - Throws: ``LandmarkError``, ``BlendshapeError`` or ``FaceGeometryError`` when a stage fails.
    ///
    /// With `refinement`, the mesh runs again in the region its own points give (``MeshRefinement``)
    /// while that region differs from the last; the analysis reports the last region in which a face was
    /// present, and its mesh.
    public func analyze(_ image: Image, region: MeshRegion, refinement: MeshRefinement? = nil) throws -> FaceAnalysis? {
        try analyze(image, region: region, refinement: refinement, stageEnded: { _ in })
    }

    /// ``analyze(_:region:refinement:)``, calling `stageEnded` with each stage's name as it ends (``StageProfile``).
    package func analyze(
        _ image: Image, region: MeshRegion, refinement: MeshRefinement? = nil, stageEnded: (String) -> Void
    ) throws -> FaceAnalysis? {
        try analyze(ImageWindow(image), region: region, refinement: refinement, stageEnded: stageEnded)
    }

    /// ``analyze(_:region:refinement:)`` on a window of the picture (a region decode) that holds the pixels
    /// the region's warp samples (``RegionSource/window(covering:reusing:)``). A refined region may reach
    /// beyond it: `window(region, current)` then gives one that holds that region's pixels (by default
    /// the same window, right for a picture decoded whole).
    ///
    /// With `keypoints` (the detector's, upright pixels), refinement's mesh is kept only when it agrees
    /// with them at least as well as the first (``MeshRefinement/keepsRefined(_:over:keypoints:)``).
    /// A `keptShare` below 1 reports a kept refined mesh only that share of the way from the first mesh
    /// (``MeshRefinement/blend(_:toward:share:)``), in the first region.
    package func analyze(
        _ window: ImageWindow, region: MeshRegion, refinement: MeshRefinement? = nil, keypoints: [SIMD2<Double>]? = nil,
        keptShare: Double = 1,
        window windowFor: (MeshRegion, ImageWindow) throws -> ImageWindow = { $1 },
        stageEnded: (String) -> Void = { _ in }
    ) throws -> FaceAnalysis? {
        var progress = MeshProgress(window, region: region)
        while true {
            switch try advance(
                progress, refinement: refinement, keypoints: keypoints, keptShare: keptShare, window: windowFor,
                stageEnded: stageEnded)
            {
            case .next(let next): progress = next
            case .done(let analysis): return analysis
            }
        }
    }

    /// One mesh pass of ``analyze(_:region:refinement:keypoints:keptShare:window:stageEnded:)`` on the face
    /// `progress` holds (its first pass, or the refinement pass it asks for): the face's state for its
    /// next pass, or, when none follows, the analysis, which the same call finishes (blendshapes, pose,
    /// classification). Passes of one face may run on different analyzers, so the mesh stage can hand
    /// each pass of each face to whichever core is free (``IndependentWork/chains(_:_:)``); a face's
    /// passes in order on any analyzers give what ``analyze(_:region:refinement:keypoints:keptShare:window:stageEnded:)`` gives.
    package func advance(
        _ progress: MeshProgress, refinement: MeshRefinement?, keypoints: [SIMD2<Double>]?, keptShare: Double,
        window windowFor: (MeshRegion, ImageWindow) throws -> ImageWindow = { $1 },
        stageEnded: (String) -> Void = { _ in }
    ) throws -> ChainStep<MeshProgress, FaceAnalysis?> {
        var progress = progress
        if let first = progress.first, let next = progress.pending {
            // A refinement pass.
            progress.window = try windowFor(next, progress.window)
            let refined = try mesh(progress.window, region: next, stageEnded: stageEnded)
            progress.extraPasses += 1
            progress.pending = nil
            // A region cut from a present face's own mesh that loses the face keeps the last good mesh.
            guard refined.isFacePresent else {
                return .done(try finish(progress, first: first, refined: true, keypoints: keypoints, keptShare: keptShare, stageEnded: stageEnded))
            }
            (progress.region, progress.mesh) = (next, refined)
        } else {
            try checkSize(of: progress.window, region: progress.region)
            let faceMesh = try mesh(progress.window, region: progress.region, stageEnded: stageEnded)
            guard faceMesh.isFacePresent else { return .done(nil) }
            progress.mesh = faceMesh
            progress.first = (progress.region, faceMesh)
            guard refinement != nil else {
                return .done(try finish(progress, first: progress.first!, refined: false, keypoints: keypoints, keptShare: keptShare, stageEnded: stageEnded))
            }
        }
        if let refinement, progress.extraPasses < max(refinement.maximumExtraPasses, 0),
           let next = try? MeshRegion(tracking: progress.mesh!), refinement.differs(next, from: progress.region)
        {
            progress.pending = next
            return .next(progress)
        }
        return .done(try finish(progress, first: progress.first!, refined: true, keypoints: keypoints, keptShare: keptShare, stageEnded: stageEnded))
    }

    /// The face's last mesh (with refinement, the one kept: ``MeshRefinement/keepsRefined(_:over:keypoints:)``,
    /// ``MeshRefinement/blend(_:toward:share:)``) through the blendshapes, pose and classification.
    private func finish(
        _ progress: MeshProgress, first: (region: MeshRegion, mesh: FaceMesh), refined: Bool, keypoints: [SIMD2<Double>]?,
        keptShare: Double, stageEnded: (String) -> Void
    ) throws -> FaceAnalysis {
        var (region, faceMesh) = (progress.region, progress.mesh!)
        if refined {
            if let keypoints, region != first.region, !MeshRefinement.keepsRefined(faceMesh, over: first.mesh, keypoints: keypoints) {
                (region, faceMesh) = first
            } else if region != first.region, keptShare < 1 {
                (region, faceMesh) = (first.region, MeshRefinement.blend(first.mesh, toward: faceMesh, share: keptShare))
            }
            stageEnded("mesh refinement")
        }
        try writeBlendshapeInput(for: faceMesh)
        stageEnded("blendshape input")
        try runBlendshapes()
        stageEnded("blendshape network")
        let coefficients = try readBlendshapes()
        stageEnded("blendshape decoding")
        let headPose = try pose(for: faceMesh)
        stageEnded("pose")
        let classification = try FaceClassification(blendshapes: coefficients, mesh: faceMesh)
        stageEnded("classification")
        return FaceAnalysis(region: region, mesh: faceMesh, blendshapes: coefficients, pose: headPose, classification: classification)
    }
}

/// A face between two mesh passes of ``FaceMeshAnalyzer/advance(_:refinement:keypoints:keptShare:window:stageEnded:)``:
/// the region and window of its last pass, its first and last meshes, and the region of the pass it asks for next.
package struct MeshProgress: Sendable {
    fileprivate var region: MeshRegion
    fileprivate var window: ImageWindow
    fileprivate var first: (region: MeshRegion, mesh: FaceMesh)?
    fileprivate var mesh: FaceMesh?
    fileprivate var pending: MeshRegion?
    fileprivate var extraPasses = 0

    /// A face before its first pass, in `region` of `window`.
    package init(_ window: ImageWindow, region: MeshRegion) {
        (self.window, self.region) = (window, region)
    }
}

/// The stages of ``FaceMeshAnalyzer/analyze(_:region:refinement:window:stageEnded:)``, in order.
extension FaceMeshAnalyzer {
    /// One mesh pass: `region` warped into the input, the network, its outputs decoded.
    private func mesh(_ window: ImageWindow, region: MeshRegion, stageEnded: (String) -> Void) throws(LandmarkError) -> FaceMesh {
        writeMeshInput(of: window, region: region)
        stageEnded("mesh input (warp)")
        try runMesh()
        stageEnded("mesh network")
        let faceMesh = try readMesh(region: region)
        stageEnded("mesh decoding")
        return faceMesh
    }

    /// Throws when `region` was made for a picture of another size than `window`'s upright one.
    private func checkSize(of window: ImageWindow, region: MeshRegion) throws(LandmarkError) {
        let upright = window.uprightSize
        guard upright.width == region.imageWidth, upright.height == region.imageHeight else {
            throw .degenerateRegion(reason: "region is for a \(region.imageWidth)×\(region.imageHeight) picture; the image is \(upright.width)×\(upright.height)")
        }
    }

    /// `region` of the picture warped into the mesh model's 256×256 input, 0…1.
    ///
    /// MediaPipe warps 8-bit pixels into 8-bit pixels with OpenCV's fixed-point bilinear warp before scaling
    /// to 0…1; sampling the same way gives the mesh model MediaPipe's input, which matters on faces where
    /// a level's difference moves the mesh (takeo.ppm blurred by σ 6: 1 px).
    private func writeMeshInput(of window: ImageWindow, region: MeshRegion) {
        let size = MeshRegion.tensorSize
        mesh.withInput(0) {
            window.warpAffineFixedPoint(
                into: $0, width: size, height: size,
                transform: region.warpTransform(rawWidth: window.pictureWidth, rawHeight: window.pictureHeight, orientation: window.orientation),
                valueRange: 0...1, border: .replicate)
        }
    }

    private func runMesh() throws(LandmarkError) {
        do { try mesh.invoke() } catch { throw .model(reason: error.description) }
    }

    /// The mesh model's outputs projected back from `region` to the picture, read in place.
    private func readMesh(region: MeshRegion) throws(LandmarkError) -> FaceMesh {
        let presenceLogit = mesh.withOutput(1) { $0.first ?? .nan }
        // The interpreter's accessors rethrow untyped errors; a Result keeps the type.
        return try mesh.withOutput(0) { landmarks in
            Result { () throws(LandmarkError) in try FaceMesh(landmarks: landmarks, presenceLogit: presenceLogit, region: region) }
        }.get()
    }

    /// The 146 points of `faceMesh` the blendshape model reads, written straight into its input.
    private func writeBlendshapeInput(for faceMesh: FaceMesh) throws(BlendshapeError) {
        try blendshapes.withInput(0) { input in
            Result { () throws(BlendshapeError) in try BlendshapeInput.write(faceMesh, into: input) }
        }.get()
    }

    private func runBlendshapes() throws(LandmarkError) {
        do { try blendshapes.invoke() } catch { throw .model(reason: error.description) }
    }

    private func readBlendshapes() throws(BlendshapeError) -> FaceBlendshapes {
        try blendshapes.withOutput(0) { output in
            Result { () throws(BlendshapeError) in try FaceBlendshapes(modelOutput: output) }
        }.get()
    }

    private func pose(for faceMesh: FaceMesh) throws(FaceGeometryError) -> HeadPose {
        try geometry.pose(for: faceMesh)
    }
}
