import Synchronization
import Testing
import VisageNN

/// The pool hands every part of every job to exactly one thread, whether its helpers are
/// spinning, parked or late, and stops cleanly.
struct WorkerPoolTests {
    @Test(arguments: [1, 2, 3])
    func everyPartRunsOnceInBackToBackJobs(helpers: Int) {
        let pool = WorkerPool(helpers: helpers)
        let counts = Mutex([Int](repeating: 0, count: 64))
        var expected = [Int](repeating: 0, count: 64)
        for job in 0 ..< 3000 {
            let parts = 1 + job % 64
            pool.run(parts: parts) { part in counts.withLock { $0[part] += 1 } }
            for part in 0 ..< parts { expected[part] += 1 }
        }
        #expect(counts.withLock { $0 } == expected)
    }

    @Test func partsRunWhileHelpersAreParked() async throws {
        let pool = WorkerPool(helpers: 2)
        let total = Atomic<Int>(0)
        for _ in 0 ..< 20 {
            // Longer than the helpers' spin, so each job has to wake them (or run on the caller).
            try await Task.sleep(for: .milliseconds(2))
            pool.run(parts: 8) { part in total.add(part + 1, ordering: .relaxed) }
        }
        #expect(total.load(ordering: .relaxed) == 20 * 36)
    }

    @Test func poolsStopWhenReleased() {
        for _ in 0 ..< 50 {
            let pool = WorkerPool(helpers: 1)
            let ran = Atomic<Int>(0)
            pool.run(parts: 2) { _ in ran.add(1, ordering: .relaxed) }
            #expect(ran.load(ordering: .relaxed) == 2)
        }
    }
}
