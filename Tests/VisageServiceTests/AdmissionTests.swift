import Foundation
import HTTPTypes
import Testing
import VisageService

/// Admission's slots under contention, without a server.
struct AdmissionTests {
    /// Many callers through 2 slots, each work 0.1 ms: every call gets a slot and finishes. The race needs a
    /// caller preempted between two lock sections, so this rarely meets it on a quiet machine (3 runs of the
    /// old code passed); service-faults.py's capacity step is where it showed.
    /// A slot freed between a caller's decision to wait and its joining the queue used to be lost: the
    /// caller then waited with a slot free, and so did every caller after it (FIFO), until their deadline.
    /// Seen on the wire as 4 requests stalled 10 s and answered 504 with no inference running (FUZZING.md
    /// finding 16; service-faults.py's capacity step, 3 runs in 6).
    @available(macOS 15, *)
    @Test func everyCallerGetsASlotUnderContention() async throws {
        let admission = Admission(slots: 2, queueLength: 2, retryAfterSeconds: 1)
        let finished = try await Self.runConcurrently(through: admission, callers: 16, runsEach: 200)
        #expect(finished == 3200)
        #expect(admission.load.running == 0)
        #expect(admission.queueDepth == 0)
    }

    /// With a queue timeout, a caller still waiting for a slot when it passes is refused with 503
    /// `overloaded` and `Retry-After`; one that gets a slot in time runs. A first call holds the only
    /// slot until the test releases it: a second, with a 50 ms timeout, must be refused after at least
    /// 50 ms; a third, made once the slot is free again, must run.
    @available(macOS 15, *)
    @Test func aWaiterPastTheQueueTimeoutIsRefused() async throws {
        let admission = Admission(slots: 1, queueLength: 1, queueTimeout: .fixed(.milliseconds(50)), retryAfterSeconds: 3)
        let (holds, release) = (Flag(), Flag())
        let holding = Task { try await admission.run(deadline: .now + .seconds(60), Self.hold(holds, until: release)) }
        try await ServiceTesting.eventually("the holder has its slot", within: Self.holdLimit) { holds.isSet }
        let start = ContinuousClock.now
        do {
            _ = try await admission.run(deadline: .now + .seconds(60)) { _ in 2 }
            Issue.record("the waiter ran instead of being refused")
        } catch let error as ServiceError {
            #expect(error.status.code == 503)
            #expect(error.record.code == .overloaded)
            #expect(error.headers[.retryAfter] == "3")
            #expect(error.record.message.contains("50 ms"))
        }
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(50), "refused after \(waited)")
        #expect(admission.queueDepth == 0)
        release.set()
        #expect(try await holding.value.value, "the slot was not held until the waiter was refused")
        // Tracking frames (queueing: false) wait for the slot however long it takes.
        let frame = Task {
            try await admission.run(deadline: .now + .seconds(60), queueing: false) { _ in 3 }
        }
        #expect(try await frame.value.value == 3)
        #expect(try await admission.run(deadline: .now + .seconds(60)) { _ in 4 }.value == 4)
        #expect(admission.load.running == 0)
    }

    /// A waiter that gets its slot before the timeout runs, and its timer is gone: it cannot refuse
    /// anything later (4 callers × 50 calls through one slot, 0.1 ms each, with a 2 s timeout).
    @available(macOS 15, *)
    @Test func waitersServedInTimeRun() async throws {
        let admission = Admission(slots: 1, queueLength: 4, queueTimeout: .fixed(.seconds(2)), retryAfterSeconds: 1)
        let finished = try await Self.runConcurrently(through: admission, callers: 4, runsEach: 50)
        #expect(finished == 200)
        #expect(admission.queueDepth == 0)
    }

    /// `auto` limits the wait to half the median of the recent inferences: none before the first inference,
    /// then about 50 ms after inferences of about 100 ms. A waiter behind an inference held 600 ms after it
    /// joined the queue is served when no inference has been timed yet; once three 100 ms ones have, a
    /// waiter is refused after at least 50 ms, while the slot ahead of it is still held.
    @available(macOS 15, *)
    @Test func autoLimitIsHalfATypicalInference() async throws {
        #expect(ServiceConfiguration().queueTimeout == QueueTimeout.none)
        let admission = Admission(slots: 1, queueLength: 1, queueTimeout: .halfTypicalInference, retryAfterSeconds: 1)
        // No inference timed yet: no limit, the waiter is served after the one ahead of it.
        let (holds, release) = (Flag(), Flag())
        let first = Task { try await admission.run(deadline: .now + .seconds(60), Self.hold(holds, until: release)) }
        try await ServiceTesting.eventually("the holder has its slot", within: Self.holdLimit) { holds.isSet }
        let waiter = Task { try await admission.run(deadline: .now + .seconds(60)) { _ in 1 }.value }
        try await ServiceTesting.eventually("a waiter is queued", within: Self.holdLimit) { admission.queueDepth == 1 }
        try await Task.sleep(for: .milliseconds(600))
        release.set()
        #expect(try await waiter.value == 1)
        #expect(try await first.value.value)
        // Times now: over 600 ms and ~0; three of 100 ms make the median about 100 ms.
        for _ in 0..<3 {
            _ = try await admission.run(deadline: .now + .seconds(60)) { _ in Thread.sleep(forTimeInterval: 0.1); return 0 }
        }
        let (holdsAgain, releaseAgain) = (Flag(), Flag())
        let holding = Task { try await admission.run(deadline: .now + .seconds(60), Self.hold(holdsAgain, until: releaseAgain)) }
        try await ServiceTesting.eventually("the holder has its slot", within: Self.holdLimit) { holdsAgain.isSet }
        let start = ContinuousClock.now
        await #expect(throws: ServiceError.self) {
            try await admission.run(deadline: .now + .seconds(60)) { _ in 2 }
        }
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(50), "refused after \(waited)")
        releaseAgain.set()
        #expect(try await holding.value.value, "the slot was not held until the waiter was refused")
    }

    /// The queue closes while more than half of the last window's requests (at least 8) were refused: a
    /// request is then admitted only to a free inference slot. Refusals keep it closed; it reopens once
    /// the window before the current one holds fewer than 8 requests or a refused share of half or less.
    /// The clock is moved by hand.
    @Test func theQueueClosesWhileMostRequestsAreRefused() throws {
        #expect(ServiceConfiguration().overloadWindow == nil)
        let clock = ManualClock()
        let admission = Admission(slots: 1, queueLength: 1, overloadWindow: .seconds(1), retryAfterSeconds: 2, clock: clock.now)
        try admission.admit()  // runs
        try admission.admit()  // waits: every place is taken
        for _ in 0..<5 { #expect(throws: ServiceError.self) { try admission.admit() } }
        #expect(!admission.isShedding, "5 refusals of 7 requests closed the queue: fewer than 8 requests")
        do {
            try admission.refuseIfFull()
            Issue.record("a full service let a request read its body")
        } catch {
            #expect(error.status.code == 503)
            #expect(error.record.code == .overloaded)
            #expect(error.headers[.retryAfter] == "2")
        }
        #expect(admission.isShedding, "6 of 8 requests refused")
        admission.leave()  // the waiter's place is free, but the queue is closed while the slot is taken
        #expect(admission.isFull)
        #expect(throws: ServiceError.self) { try admission.admit() }
        clock.advance(by: .milliseconds(1500))
        #expect(admission.isShedding, "the window before holds 7 refusals of 9")
        admission.leave()
        try admission.admit()  // a free slot admits, closed queue or not
        #expect(admission.isShedding)
        clock.advance(by: .seconds(1))
        #expect(!admission.isShedding, "the window before holds one admission")
        try admission.admit()  // the queue takes a request again
        admission.leave()
        admission.leave()
        #expect(admission.load.admitted == 0)
    }

    /// A third of the requests refused, with the queue used by each round's second request, never closes
    /// it; with no window (`--overload-window none`) nothing closes it; refusals counted by the event loop's
    /// early 503 (`noteRefusal`) count as the others.
    @Test func theQueueStaysOpenBelowHalfRefused() throws {
        let clock = ManualClock()
        let busy = Admission(slots: 1, queueLength: 1, overloadWindow: .seconds(1), retryAfterSeconds: 1, clock: clock.now)
        let open = Admission(slots: 1, queueLength: 1, overloadWindow: nil, retryAfterSeconds: 1, clock: clock.now)
        for _ in 0..<20 {
            try busy.admit()
            try busy.admit()  // the queue
            #expect(throws: ServiceError.self) { try busy.admit() }
            busy.leave()
            busy.leave()
            clock.advance(by: .milliseconds(100))
        }
        #expect(!busy.isShedding)
        try open.admit()
        try open.admit()
        for _ in 0..<20 { #expect(throws: ServiceError.self) { try open.admit() } }
        open.leave()
        #expect(!open.isShedding)
        try open.admit()  // the queue, after 20 refusals of 22
        clock.advance(by: .seconds(2))  // what the rounds counted is too old now
        try busy.admit()
        try busy.admit()
        for _ in 0..<3 { busy.noteRefusal() }
        #expect(!busy.isShedding, "3 refusals of 5 requests: too few to count")
        for _ in 0..<3 { busy.noteRefusal() }
        #expect(busy.isShedding, "6 refusals of 8")
    }

    /// `callers` tasks each making `runsEach` calls of 0.1 ms through `admission`, at most 60 s in all;
    /// returns the calls that finished.
    @available(macOS 15, *)
    static func runConcurrently(through admission: Admission, callers: Int, runsEach: Int) async throws -> Int {
        try await ServiceTesting.within(.seconds(60), "\(callers) callers × \(runsEach) runs") {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<callers {
                    group.addTask {
                        var count = 0
                        for _ in 0..<runsEach {
                            count += try await admission.run(deadline: .now + .seconds(60)) { _ in
                                Thread.sleep(forTimeInterval: 0.0001)
                                return 1
                            }.value
                        }
                        return count
                    }
                }
                return try await group.reduce(0, +)
            }
        }
    }

    /// Brief work run `here` runs on the calling task's thread; other work on an inference thread. A task
    /// preferring a one-thread executor is always on that thread, whatever hops it makes.
    @available(macOS 15, *)
    @Test func workHereRunsOnTheCallersThread() async throws {
        let executor = ServiceExecutor(threads: 1, name: "admission test")
        let admission = Admission(slots: 1, queueLength: 0, retryAfterSeconds: 1)
        let (caller, here, away) = try await Task(executorPreference: executor) {
            let caller = Self.thread()
            let here = try await admission.run(deadline: .now + .seconds(60), here: true) { _ in Self.thread() }.value
            let away = try await admission.run(deadline: .now + .seconds(60)) { _ in Self.thread() }.value
            return (caller, here, away)
        }.value
        #expect(here == caller)
        #expect(away != caller)
        #expect(admission.load.running == 0)
    }

    /// Work run `here` holds its slot like any other (a second caller waits for it), and a cancelled caller
    /// stops it at its next checkpoint, after which the slot is free again.
    @available(macOS 15, *)
    @Test func workHereHoldsItsSlotAndStopsAtACheckpointWhenCancelled() async throws {
        let executor = ServiceExecutor(threads: 2, name: "admission test")
        let admission = Admission(slots: 1, queueLength: 1, retryAfterSeconds: 1)
        let started = Flag()
        // The long work runs until it is cancelled (at most 5 minutes): the waiter queues behind it however
        // late this test's polls run.
        let long = Task(executorPreference: executor) {
            try await admission.run(deadline: .now + .seconds(300), here: true) { checkpoint in
                started.set()
                let end = ContinuousClock.now + Self.holdLimit
                while ContinuousClock.now < end {
                    Thread.sleep(forTimeInterval: 0.001)
                    try checkpoint.stage("step")
                }
                return 0
            }.value
        }
        try await ServiceTesting.eventually("the long work has started", within: Self.holdLimit) { started.isSet }
        let waiting = Task(executorPreference: executor) { try await admission.run(deadline: .now + .seconds(60), here: true) { _ in 2 }.value }
        try await ServiceTesting.eventually("a waiter is queued", within: Self.holdLimit) { admission.queueDepth == 1 }
        #expect(admission.load.running == 1)
        long.cancel()
        await #expect(throws: CancellationError.self) { try await long.value }
        #expect(try await waiting.value == 2)
        #expect(admission.load.running == 0 && admission.queueDepth == 0)
    }

    static func thread() -> ObjectIdentifier { ObjectIdentifier(Thread.current) }

    /// How long held work and the test's waits for it last at most, so that a failing test cannot hang the run.
    static let holdLimit = Duration.seconds(300)

    /// Work that sets `holds` once it has its slot, then holds the slot until the test sets `release` (at
    /// most 5 minutes, so that a failing test cannot hang the run); returns whether it was released.
    ///
    /// The test waits for states that last until it ends them, never for a window: these tests' bodies
    /// poll on the cooperative pool, which the engine suites' synchronous tests fill for half a minute at
    /// a time when they run in the same process (over a minute on a busy machine), and a poll that came
    /// after a window (a slot held 0.6 s or 10 s) had closed waited forever.
    static func hold(_ holds: Flag, until release: Flag) -> @Sendable (inout Checkpoint) throws -> Bool {
        { _ in
            holds.set()
            let end = ContinuousClock.now + holdLimit
            while !release.isSet, ContinuousClock.now < end { Thread.sleep(forTimeInterval: 0.001) }
            return release.isSet
        }
    }

}

/// Set by work on an inference thread, read by the test.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant = ContinuousClock.now
    var now: @Sendable () -> ContinuousClock.Instant { { self.lock.withLock { self.instant } } }
    func advance(by duration: Duration) { lock.withLock { instant += duration } }
}
