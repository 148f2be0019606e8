import Foundation
import Testing
import VisageModels
import VisageNN

/// The thread count an interpreter takes when its options leave it open.
struct AutomaticThreadsTests {
    static let networks: [BundledModel] = [.faceDetectorShortRange, .faceDetectorFullRange, .faceMesh, .faceBlendshapes]

    @Test(arguments: networks)
    func bundledNetworksTakeTwoCores(_ network: BundledModel) throws {
        let model = try Model(data: try network.load())
        #expect(model.automaticThreads(cores: 1) == 1)
        #expect(model.automaticThreads(cores: 2) == 2)
        let many = model.automaticThreads(cores: 64)
        #expect((2 ... 64).contains(many), "\(network): \(many)")
    }

    @Test func smallLayersStayOnTheCallingThread() throws {
        let folder = OperatorTests.folder
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tflite") && !$0.hasPrefix("unsupported") }
        try #require(names.count > 5)
        for name in names {
            let model = try Model(data: Data(contentsOf: folder.appendingPathComponent(name)))
            #expect(model.automaticThreads(cores: 8) == 1, "\(name)")
        }
    }

    @Test func optionsChooseOrFix() throws {
        let model = try Model(data: try BundledModel.faceBlendshapes.load())
        #expect(try Interpreter(model: model, options: .init(threads: 3)).threads == 3)
        #expect(try Interpreter(model: model, options: .init(threads: 0)).threads == 1)
        let chosen = try Interpreter(model: model).threads
        #expect(chosen == model.automaticThreads(cores: AutomaticThreads.availableCores))
        #expect((1 ... max(1, ProcessInfo.processInfo.activeProcessorCount)).contains(chosen))
    }
}
