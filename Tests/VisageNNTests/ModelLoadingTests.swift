import Foundation
import Testing
import VisageModels
import VisageNN

/// The bundled models load, plan and describe their tensors as MediaPipe documents them.
struct ModelLoadingTests {
    static let networks: [BundledModel] = [.faceDetectorShortRange, .faceDetectorFullRange, .faceMesh, .faceBlendshapes]

    @Test(arguments: [
        (BundledModel.faceDetectorShortRange, [[1, 128, 128, 3]], [[1, 896, 16], [1, 896, 1]]),
        (.faceDetectorFullRange, [[1, 192, 192, 3]], [[1, 2304, 16], [1, 2304, 1]]),
        (.faceMesh, [[1, 256, 256, 3]], [[1, 1, 1, 1434], [1, 1, 1, 1], [1, 1]]),
        (.faceBlendshapes, [[1, 146, 2]], [[52]]),
    ])
    func loadsWithShapes(model: BundledModel, inputs: [[Int]], outputs: [[Int]]) throws {
        let loaded = try Model(data: try model.load())
        #expect(loaded.inputs.map(\.shape) == inputs)
        #expect(Set(loaded.outputs.map(\.shape)) == Set(outputs))
        #expect(loaded.outputs.map(\.index) == Array(0 ..< outputs.count))
    }

    /// The acceptance rule: the arena is within 2× of the largest set of simultaneously live activations.
    @Test(arguments: networks)
    func arenaIsCloseToPeakOfLiveActivations(model: BundledModel) throws {
        let report = try Model(data: try model.load()).memoryReport
        #expect(report.arenaBytes >= report.peakLiveActivationBytes)
        #expect(report.arenaBytes <= 2 * report.peakLiveActivationBytes)
        #expect(report.arenaBytes < report.activationBytes)
    }

    /// The activation limit for untrusted files leaves the bundled models ample room (4× at least).
    @Test(arguments: networks)
    func arenaIsWellUnderTheActivationLimit(model: BundledModel) throws {
        let report = try Model(data: try model.load()).memoryReport
        #expect(report.arenaBytes * 4 <= report.arenaLimitBytes, "\(model.fileName): \(report.arenaBytes) of \(report.arenaLimitBytes) bytes")
    }

    @Test func namedTensorsResolve() throws {
        let model = try Model(data: try BundledModel.faceMesh.load())
        let interpreter = try Interpreter(model: model)
        let name = model.inputs[0].name
        let count = try interpreter.withInput(named: name) { $0.count }
        #expect(count == 256 * 256 * 3)
        #expect(throws: ModelError.unknownTensor(name: "nope")) {
            try interpreter.output(named: "nope")
        }
    }
}
