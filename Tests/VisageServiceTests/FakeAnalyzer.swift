import Foundation
import Visage
import VisageService

/// A stand-in for the models: each call passes through `stages` stages of `stageDelay` each, checking
/// its checkpoint between them as the real pipeline does, and answers a fixed record. It counts how many
/// calls run at once and how many were stopped, so overload, deadline and cancellation tests need no model.
final class FakeAnalyzer: FaceAnalyzing, @unchecked Sendable {
    let stageDelay: Duration
    let stages: Int
    /// Stages of a call for an image named `long…` (a request that must still be running when the test acts).
    let longStages: Int
    let warmUpDelay: Duration
    /// When set, warming up waits until it is signalled (readiness tests).
    let warmUpGate: DispatchSemaphore?
    /// When set, warming up throws it (a model that fails to load).
    let warmUpError: (any Error & Sendable)?
    private let lock = NSLock()
    private var running = 0
    private(set) var peakRunning = 0
    private(set) var started = 0
    /// The threads calls ran on, each numbered on its first call.
    private var threadsSeen = 0
    private(set) var stopped = 0
    private(set) var completed = 0

    init(
        stageDelay: Duration = .zero, stages: Int = 2, longStages: Int? = nil, warmUpDelay: Duration = .zero, warmUpGate: DispatchSemaphore? = nil,
        warmUpError: (any Error & Sendable)? = nil
    ) {
        (self.stageDelay, self.stages, self.warmUpDelay, self.warmUpGate) = (stageDelay, stages, warmUpDelay, warmUpGate)
        self.longStages = longStages ?? stages
        self.warmUpError = warmUpError
    }

    /// Calls begun (`started`), at most at once (`peak`), stopped at a checkpoint, and finished.
    var counts: (started: Int, peak: Int, stopped: Int, completed: Int) { lock.withLock { (started, peakRunning, stopped, completed) } }

    /// How many different threads the calls ran on.
    var threads: Int { lock.withLock { threadsSeen } }

    func warmUp() throws {
        warmUpGate?.wait()
        Thread.sleep(forTimeInterval: seconds(warmUpDelay))
        if let warmUpError { throw warmUpError }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Runs the fake stages; a stage sleeps in small steps so a stop is noticed at the next checkpoint.
    private func work(_ checkpoint: inout Checkpoint, name: String = "") throws {
        let thread = Thread.current.threadDictionary
        lock.withLock {
            if thread["FakeAnalyzer.seen"] == nil {
                thread["FakeAnalyzer.seen"] = true
                threadsSeen += 1
            }
            started += 1
            running += 1
            peakRunning = max(peakRunning, running)
        }
        defer { lock.withLock { running -= 1 } }
        do {
            for stage in 0..<(name.hasPrefix("long") ? longStages : stages) {
                Thread.sleep(forTimeInterval: seconds(stageDelay))
                try checkpoint.stage("fake \(stage)")
            }
        } catch {
            lock.withLock { stopped += 1 }
            throw error
        }
        lock.withLock { completed += 1 }
    }

    /// The record every fake call answers: one face, so a response can be checked field by field.
    static func record(name: String) -> FacesRecord {
        FacesRecord(image: name, width: 4, height: 3, faces: [
            FaceRecord(
                frame: .init(x: 1, y: 1, width: 2, height: 1), boundingBox: .init(x: 0.25, y: 0.33, width: 0.5, height: 0.33),
                confidence: 0.9, roll: 1, yaw: 2, pitch: 3, keypoints: ["noseTip": .init(x: 2, y: 1.5)]),
        ])
    }

    func faces(in data: Data, name: String, options: FaceOptions, limits: DecodeLimits, checkpoint: inout Checkpoint) throws -> FacesRecord {
        if data.starts(with: Data("bad".utf8)) { throw ImageError.unsupportedFormat(signature: "62 61 64") }
        try work(&checkpoint, name: name)
        return Self.record(name: name)
    }

    func contours(
        in data: Data, name: String, options: ContourOptions, format: ContourOutput, limits: DecodeLimits, checkpoint: inout Checkpoint
    ) throws -> Rendered {
        try work(&checkpoint)
        return Rendered(data: Data("{\"contourCount\":0,\"contours\":[],\"image\":\"\(name)\"}".utf8), contentType: "application/json")
    }

    func annotate(_ data: Data, options: FaceOptions, format: AnnotationOutput, limits: DecodeLimits, checkpoint: inout Checkpoint) throws -> Rendered {
        try work(&checkpoint)
        return Rendered(data: Data("<svg/>".utf8), contentType: "image/svg+xml")
    }

    func makeTracker(_ options: TrackOptions) throws -> any FrameTracking { Tracker(analyzer: self) }

    final class Tracker: FrameTracking {
        let analyzer: FakeAnalyzer
        init(analyzer: FakeAnalyzer) { self.analyzer = analyzer }
        func track(_ data: Data, index: Int, time: Double, limits: DecodeLimits, checkpoint: inout Checkpoint) throws -> TrackingFrameRecord {
            try analyzer.work(&checkpoint)
            return TrackingFrameRecord(frame: index, time: time, faces: [])
        }
    }
}
