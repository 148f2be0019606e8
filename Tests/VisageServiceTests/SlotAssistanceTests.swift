import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Visage
@testable import VisageService
import VisageNN

/// While an inference slot is free, its core lends itself to the running request's networks
/// (``SlotAssistance``); the answers stay those of one thread, and the assistant steps aside when every
/// slot runs a request.
@Suite(.serialized) struct SlotAssistanceTests {
    /// A one-thread interpreter of the short-range detector (fast mode's) with its input filled, as a request's network.
    final class Network: @unchecked Sendable {  // Used by one thread at a time.
        let model: Model
        let interpreter: Interpreter

        init() throws {
            model = try DetectorRunner.shared(.shortRange).model
            interpreter = try Interpreter(model: model, options: .init(threads: 1))
            interpreter.withInput(0) { input in
                for index in input.indices { input[index] = sin(Float(index) * 0.01) }
            }
        }

        var assistedParts: Int { interpreter.partsRunByAssistants }

        func outputs() throws -> [[Float]] {
            try interpreter.invoke()
            return (0 ..< model.outputs.count).map { interpreter.output($0) }
        }

        /// Invokes the network until an assistant has taken parts of an invocation (at most `limit`
        /// times), and returns that invocation's outputs.
        func outputsOnceAssisted(limit: Int = 200) throws -> [[Float]] {
            let before = assistedParts
            var found = try outputs()
            for _ in 1 ..< limit where assistedParts == before {
                found = try outputs()
            }
            return found
        }
    }

    /// One request on two slots: the idle slot's assistant takes parts of its network, whether the work
    /// runs on the request's own thread (brief work) or on an inference thread, and the outputs are
    /// those of an invocation no one helped.
    @available(macOS 15, *)
    @Test func anIdleSlotHelpsTheRunningRequestsNetwork() async throws {
        let network = try Network()
        let alone = try network.outputs()
        #expect(network.assistedParts == 0)
        let admission = Admission(slots: 2, queueLength: 0, retryAfterSeconds: 1)
        // Work run here runs on the service's own thread, as in the service, not on the cooperative pool
        // the other suites' tests share.
        let executor = ServiceExecutor(threads: 1, name: "slot assistance test")
        for here in [true, false] {
            let before = network.assistedParts
            let outputs = try await Task(executorPreference: executor) {
                try await admission.run(deadline: .now + .seconds(60), here: here) { _ in
                    try network.outputsOnceAssisted()
                }.value
            }.value
            #expect(network.assistedParts > before, "here: \(here)")
            #expect(outputs == alone)
        }
        #expect(admission.load.running == 0)
    }

    /// When a second request takes the last free slot, the assistant leaves the first one's network and
    /// stays away: the first one's invocations then run alone and wake no one (as under load, where every
    /// slot runs a request). Once the slot is free again, the assistant keeps away for the settling time
    /// (two connections on two cores free a slot for a millisecond between requests), then comes back.
    @Test func theAssistantStepsAsideWhileEverySlotRunsARequest() async throws {
        let network = try Network()
        let alone = try network.outputs()
        let settle = Duration.seconds(1)
        let admission = Admission(slots: 2, queueLength: 0, retryAfterSeconds: 1, clock: { .now }, assistSettle: settle)
        let (firstHelped, secondRuns, secondMayEnd) = (Flag(), Flag(), Flag())
        let secondEnded = Locked<ContinuousClock.Instant?>(nil)
        let first = Task {
            try await admission.run(deadline: .now + .seconds(120)) { _ in
                let assisted = try network.outputsOnceAssisted()
                let helpedAlone = network.assistedParts > 0
                firstHelped.set()
                // The second request takes the other slot; wait until the assistant has left.
                while !secondRuns.isSet || admission.assistance.state.assisting { Thread.sleep(forTimeInterval: 0.001) }
                let (parts, wakeUps) = (network.assistedParts, admission.assistance.state.wakeUps)
                var crowded: [[Float]] = []
                for _ in 0 ..< 20 { crowded = try network.outputs() }
                let crowdedParts = network.assistedParts - parts, crowdedWakeUps = admission.assistance.state.wakeUps - wakeUps
                secondMayEnd.set()
                while admission.load.running > 1 { Thread.sleep(forTimeInterval: 0.001) }
                // Alone again, but within the settling time of the second's end: still no help.
                let (settling, settlingWakeUps) = (network.assistedParts, admission.assistance.state.wakeUps)
                let ended = secondEnded.value!
                var settled = 0
                while ContinuousClock.now < ended + settle * 0.6 {
                    _ = try network.outputs()
                    settled += 1
                }
                let settlingParts = network.assistedParts - settling
                let settlingWakes = admission.assistance.state.wakeUps - settlingWakeUps
                let before = network.assistedParts
                let again = try network.outputsOnceAssisted()
                return (
                    helpedAlone, assisted, crowdedParts, crowdedWakeUps, crowded, settled, settlingParts, settlingWakes,
                    network.assistedParts > before, again)
            }.value
        }
        // The second request comes once the first runs (alone, it has had its chance of help).
        while !firstHelped.isSet { try await Task.sleep(for: .milliseconds(1)) }
        let second = Task {
            try await admission.run(deadline: .now + .seconds(120)) { _ in
                secondRuns.set()
                while !secondMayEnd.isSet { Thread.sleep(forTimeInterval: 0.001) }
                secondEnded.value = .now
                return 0
            }.value
        }
        let (helpedAlone, assisted, crowdedParts, crowdedWakeUps, crowded, settled, settlingParts, settlingWakes, helpedAgain, again) =
            try await first.value
        _ = try await second.value
        #expect(helpedAlone)
        #expect(assisted == alone)
        #expect(crowdedParts == 0, "the assistant took parts while every slot ran a request")
        #expect(crowdedWakeUps == 0, "invocations woke the assistant while every slot ran a request")
        #expect(crowded == alone)
        #expect(settled > 0)
        #expect(settlingParts == 0, "the assistant came back within the settling time")
        #expect(settlingWakes == 0, "invocations woke the assistant within the settling time")
        #expect(helpedAgain)
        #expect(again == alone)
        #expect(admission.load.running == 0)
    }

    /// On the wire: the benchmark's request (a 640×480 JPEG in fast mode, brief work on the request's own
    /// thread) runs under a seat of the service's board and is helped by the idle slot's assistant, and
    /// every answer equals `visage detect --json`'s.
    @Test func assistedAnswersEqualTheCLIs() async throws {
        let path = "Tests/VisageTests/Fixtures/landmarks/astronaut.jpg"
        let cli = try CLI.run(["detect", "--json", path])
        #expect(cli.status == 0, "\(cli.stderr)")
        let expected = try AnalysisTests.normalized(Data(cli.stdout.utf8))
        let image = try Data(contentsOf: ServiceTesting.samples.appendingPathComponent("../\(path)"))
        let analyzer = BoardWatchingAnalyzer()
        let app = try buildApplication(ServiceTesting.configuration { $0.maxConcurrentInferences = 2 }, analyzer: analyzer)
        try await app.test(.router) { client in
            for _ in 0 ..< 100 where analyzer.helpedParts == 0 {
                let response = try await client.execute(
                    uri: "/v1/faces", method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: image))
                #expect(response.status == .ok)
                #expect(try AnalysisTests.normalized(Data(buffer: response.body)) == expected)
            }
        }
        #expect(analyzer.seated)
        #expect(analyzer.helpedParts > 0)
    }
}

/// The real analyzer, noting whether its work ran under a seat of an assistance board and the parts
/// that board's assistants have run.
final class BoardWatchingAnalyzer: FaceAnalyzing, @unchecked Sendable {
    private let base = VisageAnalyzer()
    private let lock = NSLock()
    private var seatSeen = false
    private var parts = 0

    var seated: Bool { lock.withLock { seatSeen } }
    var helpedParts: Int { lock.withLock { parts } }

    func warmUp() throws { try base.warmUp() }

    func isBrief(faces options: FaceOptions, data: Data) -> Bool { base.isBrief(faces: options, data: data) }

    func faces(in data: Data, name: String, options: FaceOptions, limits: DecodeLimits, checkpoint: inout Checkpoint) throws -> FacesRecord {
        let record = try base.faces(in: data, name: name, options: options, limits: limits, checkpoint: &checkpoint)
        let board = Assistance.seat?.board
        lock.withLock {
            if let board {
                seatSeen = true
                parts = board.partsRunByAssistants
            }
        }
        return record
    }

    func contours(
        in data: Data, name: String, options: ContourOptions, format: ContourOutput, limits: DecodeLimits, checkpoint: inout Checkpoint
    ) throws -> Rendered {
        try base.contours(in: data, name: name, options: options, format: format, limits: limits, checkpoint: &checkpoint)
    }

    func annotate(_ data: Data, options: FaceOptions, format: AnnotationOutput, limits: DecodeLimits, checkpoint: inout Checkpoint) throws -> Rendered {
        try base.annotate(data, options: options, format: format, limits: limits, checkpoint: &checkpoint)
    }

    func makeTracker(_ options: TrackOptions) throws -> any FrameTracking { try base.makeTracker(options) }
}

/// A value shared between tasks under a lock.
final class Locked<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
