import Testing
import Visage
import VisageImage

/// Accurate mode's passes and the mesh stage's faces run side by side; the answer must be the serial one.
struct IndependentWorkTests {
    @Test func concurrentPassesAndFacesGiveTheSerialResult() throws {
        let image = try Image(contentsOf: DetectorFixtures.url("two-faces.png"))
        func run() throws -> ([DetectedFace], [LandmarkResult]) {
            let faces = try FaceDetectionPipeline.detect(in: image, mode: .accurate, rotations: true)
            let results = try FaceLandmarkPipeline.analyze(
                image, orientation: nil, regions: try FaceLandmarkPipeline.regions(for: faces), captureQuality: true)
            return (faces, results)
        }
        let serial = try IndependentWork.$runsSerially.withValue(true) { try run() }
        let concurrent = try run()
        #expect(serial.0.count == 2, "two-faces.png has two faces")
        #expect(serial.1.allSatisfy { $0.analysis != nil })
        #expect(concurrent.0 == serial.0)
        #expect(concurrent.1 == serial.1)
    }
}
