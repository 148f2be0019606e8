import Foundation
import VisageImage

/// Where the face pipeline's time goes on one image, for `visage detect --benchmark --stages`.
///
/// Each run performs fast-mode detection and, with `mesh`, the mesh stage of every face, through the
/// pipeline's own functions, which report where each stage ends; a clock read there charges the stage.
/// Each run then times the pipeline itself (`FaceDetector.analyzedFaces`); its difference from the
/// stages' sum is what they leave out (pools, locks, result types).
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

    /// One pass of `FaceDetector.analyzedFaces(in:mesh:)` in fast mode through the same functions, each
    /// reporting where its stages end.
    private static func profiledRun(_ image: Image, mesh: Bool, laps: inout Laps) throws {
        let faces = try FaceDetectionPipeline.detect(in: image, mode: .fast, stageEnded: { laps.lap($0) })
        guard mesh else { return }
        let regions = try FaceLandmarkPipeline.regions(for: faces)
        laps.lap("mesh regions")
        try FaceMeshRunner.shared().withAnalyzer { analyzer throws(FaceDetectionError) in
            laps.lap("mesh analyzer lookup")
            do {
                for case let region? in regions {
                    _ = try analyzer.analyze(image, region: region, stageEnded: { laps.lap($0) })
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
