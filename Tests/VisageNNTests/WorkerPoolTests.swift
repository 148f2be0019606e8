import Foundation
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

    /// A thread lending itself to a pool without helpers (``WorkerPool/assist(while:)``) takes parts
    /// of its jobs, each part still runs once, and the pool counts the guest only while it is there.
    @Test func aGuestTakesPartsWhileItAssists() throws {
        let pool = WorkerPool(helpers: 0)
        #expect(pool.threadCount == 1)
        let stop = Atomic<Bool>(false), left = Atomic<Bool>(false)
        let guest = Thread {
            pool.assist { !stop.load(ordering: .relaxed) }
            left.store(true, ordering: .releasing)
        }
        guest.start()
        let deadline = ContinuousClock.now + .seconds(10)
        while pool.threadCount == 1, ContinuousClock.now < deadline { usleep(100) }
        #expect(pool.threadCount == 2)
        let counts = Mutex([Int](repeating: 0, count: 8))
        var expected = [Int](repeating: 0, count: 8)
        var jobs = 0
        // Parts of 20 µs: the guest, polling, takes some of them (within 10 s on any machine).
        while pool.partsRunByGuests == 0 || jobs < 200, ContinuousClock.now < deadline {
            let parts = 2 + jobs % 7
            pool.run(parts: parts) { part in
                let start = ContinuousClock.now
                while ContinuousClock.now - start < .microseconds(20) {}
                counts.withLock { $0[part] += 1 }
            }
            for part in 0 ..< parts { expected[part] += 1 }
            jobs += 1
        }
        #expect(pool.partsRunByGuests > 0)
        #expect(counts.withLock { $0 } == expected)
        stop.store(true, ordering: .relaxed)
        while !left.load(ordering: .acquiring), ContinuousClock.now < deadline { usleep(100) }
        #expect(pool.threadCount == 1)
        // Without a guest the pool runs every part on the caller.
        let before = pool.partsRunByGuests
        pool.run(parts: 4) { part in counts.withLock { $0[part] += 1 } }
        #expect(pool.partsRunByGuests == before)
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
