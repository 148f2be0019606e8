import Foundation
import VisageImage

/// Where the face pipeline's time goes on one image, for `visage detect --benchmark --stages`.
///
/// Each run performs fast-mode detection and, with `mesh`, the mesh stage of every face, calling the
/// same stage functions as ``FaceDetector`` in the same order with a clock read between them, so caches
/// are as warm or cold as in the pipeline. Each run then times the pipeline itself
/// (`FaceDetector.analyzedFaces`); its difference from the stages' sum is what they leave out (pools,
/// locks, result types).
package enum StageProfile {
    /// The median milliseconds of each stage over `runs` runs after two warm-up runs, in pipeline order,
    /// then the stages' sum and the whole pipeline.
    package static func measure(_ image: Image, mesh: Bool, runs: Int) throws -> [(stage: String, milliseconds: Double)] {
        var names: [String] = [], samples: [String: [Double]] = [:]
        for run in 0..<runs + 2 {
            var laps = Laps()
            try profiledRun(image, mesh: mesh, laps: &laps)
            laps.add(laps.total, as: "sum of the stages")
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try FaceDetector().analyzedFaces(in: image, mesh: mesh)
            laps.add(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, as: "pipeline (FaceDetector)")
            guard run >= 2 else { continue }
            for (name, milliseconds) in laps.stages {
                if samples[name] == nil { names.append(name) }
                samples[name, default: []].append(milliseconds)
            }
        }
        return names.map { name in
            let sorted = samples[name]!.sorted()
            return (name, sorted[sorted.count / 2])
        }
    }

    /// One pass of `FaceDetector.analyzedFaces(in:mesh:)` in fast mode, split into stages.
    private static func profiledRun(_ image: Image, mesh: Bool, laps: inout Laps) throws {
        let orientation = image.orientation
        let upright = orientation.uprightSize(rawWidth: image.width, rawHeight: image.height)
        let window = DetectionWindow.letterbox(width: upright.width, height: upright.height)
        let runner = try DetectorRunner.shared(.shortRange)
        laps.lap("detector lookup")
        let detections = try runner.withInterpreter { interpreter throws(FaceDetectionError) in
            runner.writeInput(of: image, orientation: orientation, window: window, into: interpreter)
            laps.lap("detector input (warp)")
            try runner.run(interpreter)
            laps.lap("detector network")
            let detections = runner.detections(in: interpreter, window: window)
            laps.lap("detector decoding and NMS")
            return detections
        }
        let faces = detections.map { detection in
            var face = DetectedFace(
                detection: detection, imageWidth: upright.width, imageHeight: upright.height,
                angles: HeadAngles(roll: 0, yaw: 0, pitch: 0))
            face.angles = HeadAngles(keypoints: face.pixelKeypoints)
            return face
        }
        laps.lap("keypoint angles")
        guard mesh else { return }
        let regions = try FaceLandmarkPipeline.regions(for: faces)
        laps.lap("mesh regions")
        let meshRunner = try FaceMeshRunner.shared()
        try meshRunner.withAnalyzer { analyzer throws(FaceDetectionError) in
            laps.lap("mesh analyzer lookup")
            do {
                for case let region? in regions {
                    try analyzer.checkSize(of: image, region: region)
                    analyzer.writeMeshInput(of: image, region: region)
                    laps.lap("mesh input (warp)")
                    try analyzer.runMesh()
                    laps.lap("mesh network")
                    let faceMesh = try analyzer.readMesh(region: region)
                    laps.lap("mesh decoding")
                    guard faceMesh.isFacePresent else { continue }
                    try analyzer.writeBlendshapeInput(for: faceMesh)
                    laps.lap("blendshape input")
                    try analyzer.runBlendshapes()
                    laps.lap("blendshape network")
                    let blendshapes = try analyzer.readBlendshapes()
                    laps.lap("blendshape decoding")
                    _ = try analyzer.pose(for: faceMesh)
                    laps.lap("pose")
                    _ = try FaceClassification(blendshapes: blendshapes, mesh: faceMesh)
                    laps.lap("classification")
                }
            } catch {
                throw .landmarks(reason: "\(error)")
            }
        }
    }

    /// Milliseconds per stage, summed over faces.
    private struct Laps {
        var stages: [(name: String, milliseconds: Double)] = []
        var total = 0.0
        private var last = DispatchTime.now().uptimeNanoseconds

        /// Charges the time since the last lap to `name`.
        mutating func lap(_ name: String) {
            let now = DispatchTime.now().uptimeNanoseconds
            add(Double(now - last) / 1e6, as: name)
            total += Double(now - last) / 1e6
            last = now
        }

        mutating func add(_ milliseconds: Double, as name: String) {
            if let index = stages.firstIndex(where: { $0.name == name }) {
                stages[index].milliseconds += milliseconds
            } else {
                stages.append((name, milliseconds))
            }
        }
    }
}
