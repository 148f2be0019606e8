import Foundation
import Testing
import VisageService

/// The service's own executor.
struct ServiceExecutorTests {
    /// A job from outside wakes the thread that waited least, so one request after another keeps running on
    /// the same warm thread instead of going round every thread of the executor (a shared condition woke
    /// them in turn).
    @available(macOS 15, *)
    @Test func aJobWakesTheThreadThatWaitedLeast() async throws {
        let executor = ServiceExecutor(threads: 4, name: "executor test")
        // Every thread started and waiting: one still starting would wait after the others, and be woken first.
        try await Task.sleep(for: .milliseconds(200))
        var seen: [ObjectIdentifier] = []
        for _ in 0..<16 {
            seen.append(await Task(executorPreference: executor) { Self.thread() }.value)
            // Time for the thread to wait again before the next job comes.
            try await Task.sleep(for: .milliseconds(5))
        }
        // The last 6: a thread that started late (a loaded machine) waits after the others once.
        #expect(Set(seen.suffix(6)).count == 1, "\(Set(seen.suffix(6)).count) threads")
    }

    /// Jobs that come together still spread over the threads: 4 jobs that each hold their thread for 0.3 s
    /// all start within that time. (Timed inside the jobs: the test's own task runs on the cooperative pool,
    /// which other suites may hold for seconds.)
    @available(macOS 15, *)
    @Test func jobsTogetherRunAtOnce() async throws {
        let executor = ServiceExecutor(threads: 4, name: "executor test")
        let starts = Starts()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask(executorPreference: executor) {
                    starts.note()
                    Self.block(seconds: 0.3)
                }
            }
            try await group.waitForAll()
        }
        let instants = starts.instants
        #expect(instants.count == 4)
        #expect(instants.max()! - instants.min()! < .milliseconds(250), "\(instants.map { $0 - instants.min()! })")
    }

    final class Starts: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [ContinuousClock.Instant] = []
        func note() { lock.withLock { list.append(.now) } }
        var instants: [ContinuousClock.Instant] { lock.withLock { list } }
    }

    static func thread() -> ObjectIdentifier { ObjectIdentifier(Thread.current) }

    /// Holds the calling thread, as synchronous work does.
    static func block(seconds: Double) { Thread.sleep(forTimeInterval: seconds) }
}
