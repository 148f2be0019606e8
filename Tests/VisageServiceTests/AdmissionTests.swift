import Foundation
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
}
