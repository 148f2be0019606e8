import Foundation
import HummingbirdCore
import Logging
import NIOCore
import VisageNN

/// Threads of the service's own for its async work (reading requests, routing, encoding and writing
/// answers), preferred over Swift's cooperative pool for everything a connection does.
///
/// The cooperative pool has one thread per core, and whoever shares the process may fill it with
/// synchronous work: a program embedding the service, or a test run where model-heavy suites run beside
/// the service's. The service then answered nothing, not even the 503s that shed load, for seconds at a
/// time. Inference runs on threads of its own (``Admission``), brief work on the request's thread here;
/// with this executor a connection's tasks never wait for the cooperative pool either.
@available(macOS 15, *)
public final class ServiceExecutor: TaskExecutor, @unchecked Sendable {
    /// One per process, started on first use, as NIO's event loops are. Twice the cores: the work here is
    /// short, but parsing a large upload or encoding a large answer should not hold up every other request.
    public static let shared = ServiceExecutor(threads: max(4, 2 * AvailableCores.count), name: "visage service")

    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    private var head = 0
    /// The executor's own threads, as each registers on starting.
    private var members: [pthread_t] = []
    /// The threads waiting for a job, the one that waited least last: a job wakes that one, whose
    /// caches and core are the warmest. (A shared condition woke them in turn, so a request's work
    /// went round every thread of the executor.)
    private var parked: [Parker] = []

    /// One thread's wake-up call.
    private final class Parker: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
    }

    /// `threads` threads named `name` and their number, for the process's life.
    public init(threads: Int, name: String) {
        for index in 0..<threads {
            let thread = Thread { self.work() }
            thread.name = "\(name) \(index)"
            thread.start()
        }
    }

    /// Queues `job`, waking a waiting thread unless the caller is one of this executor's threads and the
    /// job is the only one queued: a task here usually starts a child or resumes another just before it
    /// suspends, and its thread then takes the job itself. Waking another thread for each such hand-off
    /// cost about 7 thread switches per request (perf stat, 2 connections).
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let me = pthread_self()
        lock.lock()
        jobs.append(job)
        let wake = jobs.count - head > 1 || !members.contains(where: { pthread_equal($0, me) != 0 }) ? parked.popLast() : nil
        lock.unlock()
        wake?.semaphore.signal()
    }

    private func work() {
        let parker = Parker()
        lock.lock()
        members.append(pthread_self())
        while true {
            guard head < jobs.count else {
                parked.append(parker)
                lock.unlock()
                parker.semaphore.wait()
                lock.lock()
                continue
            }
            let job = jobs[head]
            head += 1
            // Drop what was run once the queue is empty or mostly run: appends stay amortised O(1).
            if head == jobs.count || head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            lock.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            lock.lock()
        }
    }
}

/// Runs `body` with the service's own threads (``ServiceExecutor``) preferred for its tasks and every
/// task they start: `visage serve` runs the whole application so, accept loop included, and the tests
/// run their live servers so, beside suites that fill the cooperative pool with model runs.
///
/// ```swift
/// try await withServiceExecutor { try await app.runService() }
/// ```
public func withServiceExecutor<R>(_ body: () async throws -> R) async rethrows -> R {
    if #available(macOS 15, *) {
        try await withTaskExecutorPreference(ServiceExecutor.shared, operation: body)
    } else {
        try await body()
    }
}

/// A server child channel whose connections run on the ``ServiceExecutor``: `handle` is where
/// Hummingbird runs each connection (request after request, and the WebSocket after an upgrade), and
/// every task it starts inherits the preference. So even an application run without
/// ``withServiceExecutor(_:)`` answers on its own threads once a connection is accepted. It also sets
/// the connection's receive buffers (``receiving``).
struct ServiceExecutorChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        channel.setOption(ChannelOptions.recvAllocator, value: Self.receiving).flatMap { base.setup(channel: channel, logger: logger) }
    }

    /// NIO's adaptive receive buffers, allowed to grow to 128 KiB instead of its default 64 KiB: a 640×480
    /// JPEG's request (68 KB) then arrives in one read and one body part, where it took two reads and
    /// ``RequestBodyReader`` gathered the body into a new buffer (a 64 KiB copy), and a refused one is
    /// dropped after one read instead of two. A buffer grows only when reads fill it and shrinks again when
    /// they do not, so slow or small clients keep small buffers; at most 128 KiB a connection where NIO held
    /// 64 KiB.
    static var receiving: AdaptiveRecvByteBufferAllocator { AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: 128 << 10) }

    func handle(value: Base.Value, logger: Logger) async {
        if #available(macOS 15, *) {
            await withTaskExecutorPreference(ServiceExecutor.shared) { await base.handle(value: value, logger: logger) }
        } else {
            await base.handle(value: value, logger: logger)
        }
    }
}
