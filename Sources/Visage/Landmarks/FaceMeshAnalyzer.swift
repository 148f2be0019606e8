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
    /// - Throws: ``LandmarkError/model(reason:)`` when a model file is missing, altered or not runnable.
    public init(options: InterpreterOptions = .init()) throws(LandmarkError) {
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
        let size = MeshRegion.tensorSize
        mesh.withInput(0) {
            image.warpAffine(
                into: $0, width: size, height: size,
                transform: region.warpTransform(rawWidth: image.width, rawHeight: image.height, orientation: image.orientation),
                valueRange: 0...255, border: .replicate)
            // MediaPipe warps 8-bit pixels into 8-bit pixels before scaling to 0…1; rounding the same way
            // keeps the mesh's input, and the blendshapes that depend on it, closest to MediaPipe's.
            // Ties to even, as OpenCV's saturate_cast rounds, is also one vector instruction where
            // `rounded()` (ties away from zero) calls libm's roundf per value.
            for index in $0.indices { $0[index] = $0[index].rounded(.toNearestOrEven) / 255 }
        }
        do { try mesh.invoke() } catch { throw .model(reason: error.description) }
        return (mesh.output(0), mesh.output(1).first ?? .nan)
    }

    /// The blendshape coefficients of a mesh.
    public func blendshapes(for faceMesh: FaceMesh) throws -> FaceBlendshapes {
        let values = try BlendshapeInput.values(for: faceMesh)
        blendshapes.withInput(0) { input in
            for (index, value) in values.enumerated() { input[index] = value }
        }
        do { try blendshapes.invoke() } catch { throw LandmarkError.model(reason: error.description) }
        return try FaceBlendshapes(modelOutput: blendshapes.output(0))
    }

    /// Analyzes the face in `region` of `image`; nil when the mesh model finds no face there
    /// (presence ≤ 0.5, as MediaPipe).
    ///
    /// - Throws: ``LandmarkError``, ``BlendshapeError`` or ``FaceGeometryError`` when a stage fails.
    public func analyze(_ image: Image, region: MeshRegion) throws -> FaceAnalysis? {
        let upright = image.orientation.uprightSize(rawWidth: image.width, rawHeight: image.height)
        guard upright.width == region.imageWidth, upright.height == region.imageHeight else {
            throw LandmarkError.degenerateRegion(reason: "region is for a \(region.imageWidth)×\(region.imageHeight) picture; the image is \(upright.width)×\(upright.height)")
        }
        let outputs = try meshOutputs(image, region: region)
        let faceMesh = try FaceMesh(landmarks: outputs.landmarks, presenceLogit: outputs.presenceLogit, region: region)
        guard faceMesh.isFacePresent else { return nil }
        let coefficients = try blendshapes(for: faceMesh)
        return FaceAnalysis(
            region: region, mesh: faceMesh, blendshapes: coefficients, pose: try geometry.pose(for: faceMesh),
            classification: try FaceClassification(blendshapes: coefficients, mesh: faceMesh))
    }
}
