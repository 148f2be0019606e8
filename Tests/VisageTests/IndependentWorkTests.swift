import Synchronization
import Testing
import Visage
import VisageImage
import VisageNN

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

        // With refinement each face is a chain of mesh passes, handed out pass by pass to whichever
        // thread is free (and to whichever analyzer is idle): the same meshes as one face at a time.
        let regions = try FaceLandmarkPipeline.regions(for: serial.0)
        func refined() throws -> [LandmarkResult] {
            try FaceLandmarkPipeline.analyze(image, orientation: nil, regions: regions, captureQuality: true, refinement: MeshRefinement())
        }
        let refinedSerially = try IndependentWork.$runsSerially.withValue(true) { try refined() }
        #expect(zip(refinedSerially, regions).contains { $0.analysis?.region != $1 }, "a face took a second pass")
        for _ in 0 ..< 3 { #expect(try refined() == refinedSerially) }
    }

    /// A thread out of work lends itself to the network another thread is running (``Assistance``):
    /// here one chain ends at once and the other invokes the full-range detector again and again, and
    /// the idle thread takes parts of its operators, with the outputs of an invocation no one helped.
    @Test func idleThreadsHelpAnotherThreadsNetwork() throws {
        guard AvailableCores.count > 1 else { return }
        let model = try DetectorRunner.shared(.fullRange).model
        let interpreter = try Interpreter(model: model, options: .init(threads: 1))
        interpreter.withInput(0) { input in
            for index in input.indices { input[index] = sin(Float(index) * 0.01) }
        }
        func outputs() throws -> [[Float]] {
            try interpreter.invoke()
            return (0 ..< model.outputs.count).map { interpreter.output($0) }
        }
        let alone = try outputs()
        #expect(interpreter.partsRunByAssistants == 0)
        // Up to 200 invocations, until the other thread has helped with one.
        let results = try IndependentWork.chains(2) { (index: Int, runs: Int?) throws(FaceDetectionError) -> ChainStep<Int, [[Float]]> in
            guard index == 0 else { return .done([]) }
            let found: [[Float]]
            do { found = try outputs() } catch { throw .landmarks(reason: "\(error)") }
            let runs = (runs ?? 0) + 1
            return interpreter.partsRunByAssistants > 0 || runs == 200 ? .done(found) : .next(runs)
        }
        #expect(interpreter.partsRunByAssistants > 0)
        #expect(results[0] == alone)
    }

    /// Chains of steps, as the mesh stage's faces run their passes: each step sees the state its chain's
    /// last step handed on, every step runs once, results come back in the chains' order.
    @Test(arguments: [[1], [3, 1], [1, 1, 1, 1], [3, 1, 2, 3, 1, 1], [0, 4, 2, 2, 4]])
    func chainsGiveTheSerialResult(lengths: [Int]) throws {
        let steps = Counter()
        func run() throws -> [[Int]] {
            try IndependentWork.chains(lengths.count) { (index: Int, taken: [Int]?) throws(FaceDetectionError) -> ChainStep<[Int], [Int]> in
                steps.add()
                Self.spin(microseconds: 100 + 150 * ((index + (taken?.count ?? 0)) % 3))
                let path = (taken ?? []) + [index * 10 + (taken?.count ?? 0)]
                return path.count >= max(lengths[index], 1) ? .done(path) : .next(path)
            }
        }
        let expected = lengths.enumerated().map { index, length in (0 ..< max(length, 1)).map { index * 10 + $0 } }
        let stepCount = lengths.reduce(0) { $0 + max($1, 1) }
        let serial = try IndependentWork.$runsSerially.withValue(true) { try run() }
        #expect(steps.take() == stepCount)
        #expect(serial == expected)
        for _ in 0 ..< 20 {
            #expect(try run() == expected)
            #expect(steps.take() == stepCount)
        }
    }

    /// The error a run of chains throws is the serial run's: the first failing chain's, even when a later
    /// chain fails first in time.
    @Test func chainsThrowTheSerialError() {
        func run(failing: Set<Int>) -> FaceDetectionError? {
            do {
                _ = try IndependentWork.chains(4) { (index: Int, step: Int?) throws(FaceDetectionError) -> ChainStep<Int, Int> in
                    let step = step ?? 0
                    // Chain 3 fails at once, chain 1 after its third step.
                    Self.spin(microseconds: index == 3 ? 10 : 200)
                    if failing.contains(index), step == (index == 3 ? 0 : 2) { throw .landmarks(reason: "chain \(index)") }
                    return step == 3 ? .done(index) : .next(step + 1)
                }
                return nil
            } catch {
                return error
            }
        }
        let cases: [(Set<Int>, FaceDetectionError?)] = [([], nil), ([3], .landmarks(reason: "chain 3")), ([1, 3], .landmarks(reason: "chain 1"))]
        for (failing, expected) in cases {
            #expect(IndependentWork.$runsSerially.withValue(true) { run(failing: failing) } == expected)
            for _ in 0 ..< 10 { #expect(run(failing: failing) == expected) }
        }
    }

    /// Two rounds with fillers, as accurate mode runs its windows, checks and turned views: every job
    /// runs once, follow-ups see the plan made from every first-round result, and the results come back
    /// in the serial order, whatever the pieces' lengths.
    @Test(arguments: [(1, 0, 0), (2, 0, 0), (3, 2, 0), (8, 1, 3), (8, 0, 3), (5, 4, 1), (1, 3, 5)])
    func twoRoundsGiveTheSerialResult(count: Int, followUps: Int, fillers: Int) throws {
        let runs = Counter()
        func run() throws -> (pieces: [Int], plan: Int, followUps: [Int], fillers: [Int]) {
            try IndependentWork.map(count, { index throws(FaceDetectionError) in
                runs.add()
                Self.spin(microseconds: (count - index) * 200)  // the first pieces last longest
                return index * 10
            }, then: { (pieces: [Int]) throws(FaceDetectionError) -> (plan: Int, followUps: Int) in
                (pieces.reduce(0, +), followUps)
            }, { (plan: Int, index: Int) throws(FaceDetectionError) -> Int in
                runs.add()
                Self.spin(microseconds: 300)
                return plan + index
            }, alongside: fillers, { index throws(FaceDetectionError) in
                runs.add()
                Self.spin(microseconds: 100)
                return -index
            })
        }
        let serial = try IndependentWork.$runsSerially.withValue(true) { try run() }
        #expect(runs.take() == count + followUps + fillers)
        let sum = (0 ..< count).reduce(0) { $0 + $1 * 10 }
        #expect(serial.pieces == (0 ..< count).map { $0 * 10 })
        #expect(serial.plan == sum)
        #expect(serial.followUps == (0 ..< followUps).map { sum + $0 })
        #expect(serial.fillers == (0 ..< fillers).map { -$0 })
        for _ in 0 ..< 20 {
            let concurrent = try run()
            #expect(runs.take() == count + followUps + fillers)
            #expect(concurrent.pieces == serial.pieces)
            #expect(concurrent.plan == serial.plan)
            #expect(concurrent.followUps == serial.followUps)
            #expect(concurrent.fillers == serial.fillers)
        }
    }

    /// The error thrown is the serial run's: the first failing piece's, else the plan's, else the first
    /// failing follow-up's, else the first failing filler's.
    @Test func twoRoundsThrowTheSerialError() {
        func failure(_ name: String) -> FaceDetectionError { .landmarks(reason: name) }
        func run(pieces: Set<Int> = [], plan failsPlan: Bool = false, followUps: Set<Int> = [], fillers: Set<Int> = []) -> FaceDetectionError? {
            do {
                _ = try IndependentWork.map(4, { index throws(FaceDetectionError) in
                    Self.spin(microseconds: (4 - index) * 200)
                    if pieces.contains(index) { throw failure("piece \(index)") }
                    return index
                }, then: { (values: [Int]) throws(FaceDetectionError) -> (plan: Int, followUps: Int) in
                    if failsPlan { throw failure("plan") }
                    return (values.count, 3)
                }, { (_: Int, index: Int) throws(FaceDetectionError) -> Int in
                    if followUps.contains(index) { throw failure("follow-up \(index)") }
                    return index
                }, alongside: 3, { index throws(FaceDetectionError) in
                    if fillers.contains(index) { throw failure("filler \(index)") }
                    return index
                })
                return nil
            } catch {
                return error
            }
        }
        let cases: [(FaceDetectionError?, () -> FaceDetectionError?)] = [
            (nil, { run() }),
            (failure("piece 1"), { run(pieces: [3, 1], plan: true, followUps: [0], fillers: [0]) }),
            (failure("plan"), { run(plan: true, followUps: [0], fillers: [0]) }),
            (failure("follow-up 1"), { run(followUps: [2, 1], fillers: [0]) }),
            (failure("filler 2"), { run(fillers: [2]) }),
        ]
        for (expected, body) in cases {
            let serial = IndependentWork.$runsSerially.withValue(true) { body() }
            #expect(serial == expected)
            for _ in 0 ..< 10 { #expect(body() == expected) }
        }
    }

    /// Jobs run, counted from any thread.
    private final class Counter: Sendable {
        private let count = Atomic<Int>(0)
        func add() { _ = count.add(1, ordering: .relaxed) }
        func take() -> Int { count.exchange(0, ordering: .relaxed) }
    }

    /// Busy work of about `microseconds`, so pieces overlap and finish out of order.
    private static func spin(microseconds: Int) {
        let end = ContinuousClock.now + .microseconds(microseconds)
        while ContinuousClock.now < end {}
    }
}
