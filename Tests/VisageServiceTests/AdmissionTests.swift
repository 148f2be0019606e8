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
        let finished = try await ServiceTesting.within(.seconds(60), "16 callers × 200 runs through 2 slots") {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        var count = 0
                        for _ in 0..<200 {
                            let (value, _) = try await admission.run(deadline: .now + .seconds(60)) { _ in
                                Thread.sleep(forTimeInterval: 0.0001)
                                return 1
                            }
                            count += value
                        }
                        return count
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        #expect(finished == 3200)
        #expect(admission.load.running == 0)
        #expect(admission.queueDepth == 0)
    }

    /// With a queue timeout, a caller still waiting for a slot when it passes is refused with 503
    /// `overloaded` and `Retry-After`; one that gets a slot in time runs. One slot is held 3 s by a
    /// first call; a second call with a 50 ms timeout must be refused after at least 50 ms and while the
    /// slot is still held, and a third, made once the slot is free again, must run.
    @available(macOS 15, *)
    @Test func aWaiterPastTheQueueTimeoutIsRefused() async throws {
        let admission = Admission(slots: 1, queueLength: 1, queueTimeout: .fixed(.milliseconds(50)), retryAfterSeconds: 3)
        let released = Flag()
        let holding = Task {
            try await admission.run(deadline: .now + .seconds(60)) { _ in Thread.sleep(forTimeInterval: 3); released.set(); return 1 }
        }
        while admission.load.running == 0 { try await Task.sleep(for: .milliseconds(1)) }
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
        #expect(!released.isSet, "refused only after the slot was free again")
        #expect(admission.queueDepth == 0)
        #expect(try await holding.value.value == 1)
        // Tracking frames (queueing: false) wait for the slot however long it takes.
        let frame = Task {
            try await admission.run(deadline: .now + .seconds(60), queueing: false) { _ in 3 }
        }
        #expect(try await frame.value.value == 3)
        #expect(try await admission.run(deadline: .now + .seconds(60)) { _ in 4 }.value == 4)
        #expect(admission.load.running == 0)
    }

    /// A waiter that gets its slot before the timeout runs, and its timer is gone: it cannot refuse
    /// anything later (each of 200 calls through one slot, 0.1 ms each, with a 2 s timeout).
    @available(macOS 15, *)
    @Test func waitersServedInTimeRun() async throws {
        let admission = Admission(slots: 1, queueLength: 4, queueTimeout: .fixed(.seconds(2)), retryAfterSeconds: 1)
        let finished = try await ServiceTesting.within(.seconds(60), "4 callers × 50 runs through 1 slot") {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var count = 0
                        for _ in 0..<50 {
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
        #expect(finished == 200)
        #expect(admission.queueDepth == 0)
    }

    /// The default limit is half the median of the recent inferences: none before the first inference,
    /// then about 50 ms after inferences of about 100 ms. A waiter behind a 600 ms inference is served
    /// when no inference has been timed yet; once three 100 ms ones have, a waiter behind a 3 s one is
    /// refused after at least 50 ms, while that slot is still held.
    @available(macOS 15, *)
    @Test func theDefaultLimitIsHalfATypicalInference() async throws {
        #expect(QueueTimeout.default == .typicalInference(fraction: 0.5))
        let admission = Admission(slots: 1, queueLength: 1, queueTimeout: .default, retryAfterSeconds: 1)
        let released = Flag()
        func holdSlot(for seconds: Double) async throws -> Task<Int, any Error> {
            let task = Task {
                try await admission.run(deadline: .now + .seconds(60)) { _ in Thread.sleep(forTimeInterval: seconds); released.set(); return 0 }.value
            }
            while admission.load.running == 0 { try await Task.sleep(for: .milliseconds(1)) }
            return task
        }
        // No inference timed yet: no limit, the waiter is served after the 600 ms one.
        let first = try await holdSlot(for: 0.6)
        #expect(try await admission.run(deadline: .now + .seconds(60)) { _ in 1 }.value == 1)
        _ = try await first.value
        // Times now: 600 ms and ~0; three of 100 ms make the median about 100 ms.
        for _ in 0..<3 {
            _ = try await admission.run(deadline: .now + .seconds(60)) { _ in Thread.sleep(forTimeInterval: 0.1); return 0 }
        }
        released.reset()
        let holding = try await holdSlot(for: 3)
        let start = ContinuousClock.now
        await #expect(throws: ServiceError.self) {
            try await admission.run(deadline: .now + .seconds(60)) { _ in 2 }
        }
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(50), "refused after \(waited)")
        #expect(!released.isSet, "refused only after the slot was free again")
        _ = try await holding.value
    }
}

/// Set by work on an inference thread, read by the test.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
    func reset() { lock.withLock { value = false } }
}
