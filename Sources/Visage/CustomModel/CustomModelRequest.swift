import Foundation
import VisageGeometry
import VisageImage
import VisageNN

/// Runs a third-party TFLite model on an image, a region of it, or each face: Vision's `VNCoreMLRequest`.
///
/// The crop is warped straight into the input tensor (``Image/warpAffine(into:width:height:transform:valueRange:border:roundedToLevels:)``,
/// bilinear, orientation folded in), stretched to the model's input size, in the declared channel order
/// and value range. Results carry the raw output tensors and the crop, so classification
/// (``CustomModelObservation/classifications(output:top:labels:softmax:)``) and segmentation masks
/// (``CustomModelObservation/mask(output:channel:)``) come back in picture terms.
///
/// ```swift
/// let iris = try CustomModel(contentsOf: URL(fileURLWithPath: "iris_landmark.tflite"))
/// var request = CustomModelRequest(model: iris, region: .faces(.box(margin: 0.1)))
/// for result in try await ImageRequestHandler(URL(fileURLWithPath: "face.jpg")).perform(request) {
///     print(result.face!.boundingBox, result.outputs.map(\.shape))
/// }
/// ```
public struct CustomModelRequest: ImageProcessingRequest {
    /// Where in the picture the model looks.
    public enum Region: Sendable, Hashable {
        /// The whole upright picture, stretched to the input.
        case wholeImage
        /// A rectangle normalized to the upright picture, origin at the lower left (Vision's convention,
        /// as ``FaceObservation/boundingBox``).
        case region(NormalizedRect)
        /// One crop per face: detected, or ``CustomModelRequest/inputFaceObservations``.
        case faces(FaceCrop)
    }

    /// How a face becomes a crop.
    public enum FaceCrop: Sendable, Hashable {
        /// The face-mesh model's region (``MeshRegion``): square, 1.5× the face box, turned so the eyes
        /// are level. Runs the landmark stage.
        case meshRegion
        /// The face box grown by `margin` of its width and height on every side, upright.
        case box(margin: Double)
    }

    public let model: CustomModel
    public var input: CustomModelInput
    public var region: Region
    /// The faces to crop for ``Region/faces(_:)``; nil (the default) detects them.
    public var inputFaceObservations: [FaceObservation]?

    /// - Parameter input: how pixels become the input tensor; nil (the default) is RGB in the value range
    ///   the model's TFLite metadata declares (``CustomModel/metadataValueRange``), 0…1 without metadata.
    public init(model: CustomModel, input: CustomModelInput? = nil, region: Region = .wholeImage) {
        (self.model, self.input, self.region) = (model, input ?? .init(valueRange: model.metadataValueRange), region)
    }

    /// One observation per crop: one for the whole image or a region, one per face (in detection order).
    public func perform(on image: Image, orientation: ImageOrientation? = nil) async throws -> [CustomModelObservation] {
        try performSynchronously(on: image, orientation: orientation)
    }

    /// ``perform(on:orientation:)`` on the calling thread, for the CLI.
    package func performSynchronously(on image: Image, orientation: ImageOrientation? = nil) throws -> [CustomModelObservation] {
        let (width, height) = try inputSize()
        let orientation = orientation ?? image.orientation
        let upright = orientation.uprightSize(rawWidth: image.width, rawHeight: image.height)
        let (w, h) = (Double(upright.width), Double(upright.height))
        var crops: [(ModelCrop, FaceObservation?)] = []
        switch region {
        case .wholeImage:
            crops = [(ModelCrop(wholeImageWidth: upright.width, height: upright.height), nil)]
        case .region(let rect):
            guard [rect.minX, rect.minY, rect.width, rect.height].allSatisfy(\.isFinite), rect.width > 0, rect.height > 0 else {
                throw CustomModelError.invalidParameter(name: "region", value: "\(rect)", rule: "width and height must be positive and finite")
            }
            crops = [(ModelCrop(centerX: rect.midX * w, centerY: (1 - rect.midY) * h, width: rect.width * w, height: rect.height * h), nil)]
        case .faces(.meshRegion):
            var request = DetectFaceLandmarksRequest()
            request.inputFaceObservations = inputFaceObservations
            for face in try request.performSynchronously(on: image, orientation: orientation) {
                guard let region = face.analysis?.region else { continue }
                crops.append((ModelCrop(centerX: region.centerX, centerY: region.centerY, width: region.side, height: region.height, rotation: region.rotation), face))
            }
        case .faces(.box(let margin)):
            guard margin.isFinite, margin > -0.5, margin <= 10 else {
                throw CustomModelError.invalidParameter(name: "margin", value: "\(margin)", rule: "a fraction of the box in (−0.5, 10]")
            }
            let faces = try inputFaceObservations ?? DetectFaceRectanglesRequest().performSynchronously(on: image, orientation: orientation)
            for face in faces {
                let box = face.boundingBox
                crops.append((ModelCrop(
                    centerX: box.midX * w, centerY: (1 - box.midY) * h,
                    width: box.width * w * (1 + 2 * margin), height: box.height * h * (1 + 2 * margin)), face))
            }
        }
        // One thread, as before interpreters chose their own count: callers run images side by side.
        let interpreter = try Interpreter(model: model.model, options: InterpreterOptions(threads: 1))
        return try crops.map { crop, face in
            let transform = crop.warpTransform(
                tensorWidth: width, tensorHeight: height, rawWidth: image.width, rawHeight: image.height, orientation: orientation)
            interpreter.withInput(0) { tensor in
                image.warpAffine(into: tensor, width: width, height: height, transform: transform, valueRange: input.valueRange, border: input.border)
                if input.channelOrder == .bgr {
                    for pixel in stride(from: 0, to: width * height * 3, by: 3) { tensor.swapAt(pixel, pixel + 2) }
                }
            }
            try interpreter.invoke()
            let outputs = model.model.outputs.map { ModelOutput(name: $0.name, shape: $0.shape, values: interpreter.output($0.index)) }
            return CustomModelObservation(
                outputs: outputs, crop: crop, inputWidth: width, inputHeight: height,
                imageWidth: upright.width, imageHeight: upright.height, face: face)
        }
    }

    /// The model's input size, checked against the declared one.
    private func inputSize() throws(CustomModelError) -> (width: Int, height: Int) {
        let size = try model.imageInputSize()
        if (input.width.map { $0 != size.width } ?? false) || (input.height.map { $0 != size.height } ?? false) {
            throw .inputSizeMismatch(declared: [input.width ?? size.width, input.height ?? size.height], model: [size.width, size.height])
        }
        return size
    }
}
