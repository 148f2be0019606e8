import Foundation
import VisageImage
import VisageModels
import VisageNN

/// One detector model, loaded and checked once per process, and the interpreters that run it.
///
/// The model is immutable and shared; interpreters own mutable arenas, so each call borrows one from a
/// small pool and returns it, and concurrent calls never share one.
package final class DetectorRunner: @unchecked Sendable {  // `idle` is guarded by `lock`.
    package let variant: DetectorVariant
    package let model: Model
    package let regressorsIndex: Int
    package let classificatorsIndex: Int
    private let lock = NSLock()
    private var idle: [Interpreter] = []
    /// Idle interpreters kept: enough for the cores, without holding arenas forever. Read once:
    /// Foundation reads the cgroup files on every call.
    private static let idleLimit = AvailableCores.count

    /// The runner for `variant`, created on first use; the error is kept so a broken model file is
    /// reported on every call rather than retried.
    package static func shared(_ variant: DetectorVariant) throws(FaceDetectionError) -> DetectorRunner {
        switch variant {
        case .shortRange: try shortRange.get()
        case .fullRange: try fullRange.get()
        case .fullRangeSparse: try fullRangeSparse.get()
        }
    }

    private static let shortRange = Result { () throws(FaceDetectionError) in try DetectorRunner(variant: .shortRange) }
    private static let fullRange = Result { () throws(FaceDetectionError) in try DetectorRunner(variant: .fullRange) }
    private static let fullRangeSparse = Result { () throws(FaceDetectionError) in try DetectorRunner(variant: .fullRangeSparse) }

    /// Loads the bundled model of `variant` and checks its tensors are the ones the decoder expects.
    package init(variant: DetectorVariant) throws(FaceDetectionError) {
        self.variant = variant
        let name = variant.bundledModel.fileName
        let data: Data
        do {
            data = try variant.bundledModel.load()
        } catch {
            throw .model(name: name, reason: error.description)
        }
        do {
            model = try Model(data: data)
        } catch {
            throw .model(name: name, reason: error.description)
        }
        let size = variant.inputSize, anchors = variant.decoder.anchors.count
        guard model.inputs.count == 1, model.inputs[0].shape == [1, size, size, 3] else {
            throw .model(name: name, reason: "input is \(model.inputs.map(\.description)), expected one 1×\(size)×\(size)×3 tensor")
        }
        guard model.outputs.count == 2,
              let regressors = model.outputs.firstIndex(where: { $0.shape == [1, anchors, DetectionDecoder.valuesPerAnchor] }),
              let classificators = model.outputs.firstIndex(where: { $0.shape == [1, anchors, 1] })
        else {
            throw .model(name: name, reason: "outputs are \(model.outputs.map(\.description)), expected 1×\(anchors)×16 and 1×\(anchors)×1")
        }
        (regressorsIndex, classificatorsIndex) = (regressors, classificators)
    }

    /// Runs the detector on `window` of `image` (whose stored pixels have `orientation`) and returns the
    /// faces after weighted NMS, normalized to the upright picture.
    /// `stageEnded` is called with each stage's name as it ends (``StageProfile``).
    ///
    /// With `reduction` k > 1, `image` is the picture decoded at 1/k (a JPEG's DC terms at 1/8) and `window`
    /// lies in the whole upright picture: the input is sampled at the whole picture's points
    /// (``Image/sampleBlockMeans(into:width:height:transform:fullWidth:fullHeight:factor:valueRange:)``).
    package func detect(
        in image: Image, orientation: ImageOrientation, window: DetectionWindow, reduction: Int = 1,
        stageEnded: (String) -> Void = { _ in }
    ) throws(FaceDetectionError) -> [Detection] {
        let interpreter = try borrow()
        defer { giveBack(interpreter) }
        writeInput(of: image, orientation: orientation, window: window, reduction: reduction, into: interpreter)
        stageEnded("detector input (warp)")
        return try runAndDecode(interpreter, window: window, stageEnded: stageEnded)
    }

    /// ``detect(in:orientation:window:reduction:stageEnded:)`` on a baseline JPEG's full decode without
    /// making it: the input is the full decode's letterbox bit for bit, from the pixels the warp reads
    /// alone (``JPEGSparseDecoder/warpAffine(_:into:width:height:transform:valueRange:)``), so the faces are
    /// the full decode's. `storedWidth` × `storedHeight` is the file's frame. Nil when the file is not one
    /// the sparse decoder reads (the caller then decodes it).
    package func detect(
        encodedJPEG data: Data, storedWidth: Int, storedHeight: Int, orientation: ImageOrientation, window: DetectionWindow,
        stageEnded: (String) -> Void = { _ in }
    ) throws(FaceDetectionError) -> [Detection]? {
        let interpreter = try borrow()
        defer { giveBack(interpreter) }
        let size = variant.inputSize
        let transform = window.warpTransform(tensorSize: size, rawWidth: storedWidth, rawHeight: storedHeight, orientation: orientation)
        let written = interpreter.withInput(0) { tensor in
            data.withUnsafeBytes { bytes in
                JPEGSparseDecoder.warpAffine(
                    bytes, into: tensor, width: size, height: size, transform: transform, valueRange: -1...1, asOpenCV: variant.samplesAsOpenCV)
            }
        }
        guard written else { return nil }
        stageEnded("detector input (sparse decode and warp)")
        return try runAndDecode(interpreter, window: window, stageEnded: stageEnded)
    }

    /// Runs the network on the input written into `interpreter`, then decodes and merges its boxes.
    private func runAndDecode(
        _ interpreter: Interpreter, window: DetectionWindow, stageEnded: (String) -> Void
    ) throws(FaceDetectionError) -> [Detection] {
        try run(interpreter)
        stageEnded("detector network")
        let found = detections(in: interpreter, window: window)
        stageEnded("detector decoding and NMS")
        return found
    }

    /// The stages of ``detect(in:orientation:window:stageEnded:)``: `window` of `image` letterboxed into
    /// the input tensor (−1…1) …
    private func writeInput(
        of image: Image, orientation: ImageOrientation, window: DetectionWindow, reduction: Int, into interpreter: Interpreter
    ) {
        let size = variant.inputSize
        if reduction > 1 {
            // The whole picture's stored size (an orientation swaps both ways alike).
            let full = orientation.uprightSize(rawWidth: window.imageWidth, rawHeight: window.imageHeight)
            let transform = window.warpTransform(tensorSize: size, rawWidth: full.width, rawHeight: full.height, orientation: orientation)
            let sampled = interpreter.withInput(0) { tensor in
                image.sampleBlockMeans(
                    into: tensor, width: size, height: size, transform: transform, fullWidth: full.width, fullHeight: full.height,
                    factor: reduction, valueRange: -1...1)
            }
            if sampled { return }
        }
        let transform = window.warpTransform(tensorSize: size, rawWidth: image.width, rawHeight: image.height, orientation: orientation)
        interpreter.withInput(0) { tensor in
            if variant.samplesAsOpenCV {
                image.warpAffineFixedPoint(into: tensor, width: size, height: size, transform: transform, valueRange: -1...1, border: .zero)
            } else {
                image.warpAffine(into: tensor, width: size, height: size, transform: transform, valueRange: -1...1, border: .zero)
            }
        }
    }

    /// … the network …
    private func run(_ interpreter: Interpreter) throws(FaceDetectionError) {
        do {
            try interpreter.invoke()
        } catch {
            throw .model(name: variant.bundledModel.fileName, reason: error.description)
        }
    }

    /// … and its outputs decoded, merged by weighted NMS and projected from `window` to the upright picture.
    private func detections(in interpreter: Interpreter, window: DetectionWindow) -> [Detection] {
        let decoded = interpreter.withOutput(regressorsIndex) { regressors in
            interpreter.withOutput(classificatorsIndex) { classificators in
                variant.decoder.decode(regressors: regressors, classificators: classificators)
            }
        }
        return weightedNonMaxSuppression(decoded, threshold: DetectorVariant.suppressionThreshold).map(window.project)
    }

    private func borrow() throws(FaceDetectionError) -> Interpreter {
        if let interpreter = lock.withLock({ idle.popLast() }) { return interpreter }
        do {
            return try Interpreter(model: model, options: InterpreterOptions(threads: 1))
        } catch {
            throw .model(name: variant.bundledModel.fileName, reason: error.description)
        }
    }

    private func giveBack(_ interpreter: Interpreter) {
        lock.withLock {
            if idle.count < Self.idleLimit { idle.append(interpreter) }
        }
    }
}
