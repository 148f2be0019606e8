import Foundation
import HTTPTypes
import Visage
import VisageNN

/// Admission control: at most `running` inferences at once and `queued` more requests waiting for one.
///
/// A request is refused at once with 503 and `Retry-After` when every place is taken
/// (``refuseIfFull()``), without reading or decoding anything; otherwise it reads its body (under the
/// ``BodyBudget``, holding no place) and is admitted (``admit()``) once the body is complete. An admitted request runs its CPU work
/// through ``run(deadline:queueing:here:waited:_:)``, which waits for a free slot and runs the work on a thread of its own (brief work: on the caller's), off
/// Swift's cooperative pool, so a busy pipeline never delays the answers that shed load. While slots are free,
/// their cores take parts of the running work's networks (``SlotAssistance``).
///
/// With an ``overloadWindow`` the queue closes under overload: while more than half of the requests of the last
/// window were refused, a request is admitted only when an inference slot is free, so none of the requests
/// the service accepts then waits behind another (the idea of CoDel and of Facebook's adaptive queueing: a
/// queue that never drains only adds latency). Requests arriving faster than twice the service's rate keep
/// it closed; below that the queue absorbs bursts as before. Off by default: it pays only with a long queue
/// (``ServiceConfiguration/overloadWindow``).
public final class Admission: @unchecked Sendable {
    public let slots: Int
    public let queueLength: Int
    /// How long an admitted request may wait for a slot before it is refused.
    public let queueTimeout: QueueTimeout
    /// The span over which refusals are counted against admissions: the queue is closed while refusals
    /// were more than half of them (and at least ``RequestTally/minimumCount`` requests came). Nil keeps
    /// the queue open always.
    public let overloadWindow: Duration?
    let retryAfterSeconds: Int
    private let lock = NSLock()
    private var admitted = 0
    private var running = 0
    private var waiters: [Waiter] = []
    private typealias Waiter = (id: UInt64, continuation: CheckedContinuation<Void, any Error>, timer: UInt64?)
    private var nextWaiter: UInt64 = 0
    /// Requests admitted and refused, this window and the one before.
    private var tally = RequestTally()
    private let clock: @Sendable () -> ContinuousClock.Instant
    /// The slot times of the last inferences (a ring), kept only for ``QueueTimeout/typicalInference(fraction:)``.
    private var recent = InferenceTimes()
    /// Told the number of requests waiting for a slot each time it changes, under the lock, so the
    /// `visage_inference_queue_depth` gauge follows the queue in order.
    private let onQueueDepth: @Sendable (Int) -> Void
    /// One thread per slot at most, kept between requests.
    private let threads: WorkerThreads
    /// Idle cores lent to the running requests' networks while slots are free.
    let assistance: SlotAssistance

    public convenience init(
        slots: Int, queueLength: Int, queueTimeout: QueueTimeout = .none, overloadWindow: Duration? = nil, retryAfterSeconds: Int,
        onQueueDepth: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.init(
            slots: slots, queueLength: queueLength, queueTimeout: queueTimeout, overloadWindow: overloadWindow,
            retryAfterSeconds: retryAfterSeconds, onQueueDepth: onQueueDepth, clock: { .now })
    }

    /// `clock` tells the time for the overload window (tests move it by hand); `assistSettle` is
    /// ``SlotAssistance/settle``.
    package init(
        slots: Int, queueLength: Int, queueTimeout: QueueTimeout = .none, overloadWindow: Duration? = nil, retryAfterSeconds: Int,
        onQueueDepth: @escaping @Sendable (Int) -> Void = { _ in }, clock: @escaping @Sendable () -> ContinuousClock.Instant,
        assistSettle: Duration = .milliseconds(20)
    ) {
        self.clock = clock
        precondition(slots >= 1 && queueLength >= 0 && queueTimeout.isValid && (overloadWindow ?? .zero) >= .zero)
        self.slots = slots
        self.queueLength = queueLength
        self.queueTimeout = queueTimeout
        self.overloadWindow = overloadWindow
        self.retryAfterSeconds = retryAfterSeconds
        self.onQueueDepth = onQueueDepth
        self.threads = WorkerThreads(limit: slots, name: "visage inference", stackSize: 16 << 20)
        self.assistance = SlotAssistance(slots: slots, settle: assistSettle)
    }

    deinit {
        assistance.stop()
    }

    /// Requests admitted and not yet answered, and inferences running now.
    public var load: (admitted: Int, running: Int) { lock.withLock { (admitted, running) } }

    /// Throws `overloaded` (503 with `Retry-After`) when there is no place for a request now; takes nothing.
    public func refuseIfFull() throws(ServiceError) {
        let refused = lock.withLock { () -> Bool in
            let now = clock()
            guard !hasPlace(at: now) else { return false }
            tally.count(refused: true, at: now, window: overloadWindow)
            return true
        }
        if refused { throw overloaded() }
    }

    /// Whether a request would be refused now: every place taken, or every slot while the queue is closed.
    /// A caller that refuses on it says so with ``noteRefusal()``.
    public var isFull: Bool { lock.withLock { !hasPlace(at: clock()) } }

    /// Counts a refusal made on ``isFull`` (the event loop's early 503) toward closing the queue.
    public func noteRefusal() {
        lock.withLock { tally.count(refused: true, at: clock(), window: overloadWindow) }
    }

    /// Whether the queue is closed now (``overloadWindow``).
    public var isShedding: Bool { lock.withLock { isClosed(at: clock()) } }

    /// Takes a place for a request, or throws `overloaded` (503 with `Retry-After`) when there is none.
    /// Pair with ``leave()``.
    public func admit() throws(ServiceError) {
        let taken = lock.withLock { () -> Bool in
            let now = clock()
            let taken = hasPlace(at: now)
            if taken { admitted += 1 }
            tally.count(refused: !taken, at: now, window: overloadWindow)
            return taken
        }
        guard taken else { throw overloaded() }
    }

    /// Under the lock: whether a request may take a place at `now`.
    private func hasPlace(at now: ContinuousClock.Instant) -> Bool {
        admitted < slots || (admitted < slots + queueLength && !isClosed(at: now))
    }

    /// Under the lock.
    private func isClosed(at now: ContinuousClock.Instant) -> Bool {
        guard let overloadWindow else { return false }
        return tally.isOverloaded(at: now, window: overloadWindow)
    }

    func overloaded() -> ServiceError {
        var headers = HTTPFields()
        headers[.retryAfter] = "\(retryAfterSeconds)"
        return ServiceError(
            .overloaded,
            "every inference slot (\(slots)) is busy and the queue (\(queueLength) places) takes no more requests; retry after \(retryAfterSeconds) s",
            headers: headers)
    }

    /// Gives back the place ``admit()`` took.
    public func leave() {
        lock.withLock { admitted -= 1 }
    }

    /// Runs `work` on an inference thread once a slot is free, passing it a ``Checkpoint`` for `deadline`.
    ///
    /// With `queueing`, a request that waits longer than ``queueTimeout`` allows for its slot is refused
    /// with `overloaded` (503 with `Retry-After`) instead (HAProxy's `timeout queue`): under overload
    /// every slot stays busy and the queue full, and the wait for a slot is what lifts the accepted
    /// requests' latency above the unloaded one. Tracking frames pass `queueing: false`: they already keep
    /// only the newest frame.
    ///
    /// Cancelling the calling task (deadline, client gone, shutdown) returns at once with
    /// `CancellationError`; the work itself stops at its next checkpoint and only then frees its slot, so
    /// no more than `slots` inferences ever run.
    ///
    /// `waited` is told, on the inference thread, how long the work waited for its slot and thread.
    ///
    /// With `here`, brief work (a small image's fast detection, a few milliseconds) runs on the calling
    /// thread once its slot is free, instead of being handed to an inference thread and back: at one
    /// connection the two hand-offs cost about 0.4 ms of a 5 ms request (a thread woken each way) and
    /// about 2 context switches. The calling task then returns only when the work stops, so a cancelled
    /// or late request is answered at the work's next checkpoint, a few milliseconds late at most; work
    /// that may take longer must not pass `here`. The slot and the queue are the same either way.
    public func run<T: Sendable>(
        deadline: ContinuousClock.Instant, queueing: Bool = true, here: Bool = false, waited: (@Sendable (Duration) -> Void)? = nil,
        _ work: @escaping @Sendable (inout Checkpoint) throws -> T
    ) async throws -> (value: T, timings: [StageTiming]) {
        let asked = ContinuousClock.now
        try await acquireSlot(queueing: queueing)
        let flag = CancellationFlag()
        if here {
            return try await withTaskCancellationHandler {
                try self.runOnSlot(asked: asked, flag: flag, deadline: deadline, waited: waited, work).get()
            } onCancel: {
                flag.cancel()
            }
        }
        let box = ResumeOnce<(value: T, timings: [StageTiming])>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                box.set(continuation)
                // Threads of its own: Dispatch's shared pool is sized to the cores and would queue a
                // slot's work behind unrelated blocking work; the slots already bound how many run.
                self.threads.run {
                    box.resume(with: self.runOnSlot(asked: asked, flag: flag, deadline: deadline, waited: waited, work))
                }
            }
        } onCancel: {
            flag.cancel()
            box.resume(with: .failure(CancellationError()))
        }
    }

    /// `work` on the slot its caller holds, on the calling thread, under a checkpoint for `flag` and
    /// `deadline`; `waited` is told the time since `asked` first. The slot is freed when it returns.
    private func runOnSlot<T: Sendable>(
        asked: ContinuousClock.Instant, flag: CancellationFlag, deadline: ContinuousClock.Instant,
        waited: (@Sendable (Duration) -> Void)?, _ work: @Sendable (inout Checkpoint) throws -> T
    ) -> Result<(value: T, timings: [StageTiming]), any Error> {
        let started = ContinuousClock.now
        waited?(started - asked)
        defer { releaseSlot(held: ContinuousClock.now - started) }
        // The seat is given back before the slot: the request the slot goes to takes one.
        let seat = assistance.take()
        defer { assistance.leave(seat) }
        var checkpoint = Checkpoint(flag: flag, deadline: deadline)
        return Assistance.$seat.withValue(seat) {
            Result {
                try checkpoint.check()
                let value = try work(&checkpoint)
                return (value: value, timings: checkpoint.timings)
            }
        }
    }

    private func acquireSlot(queueing: Bool) async throws {
        let id: UInt64? = lock.withLock {
            if running < slots, waiters.isEmpty {
                running += 1
                return nil
            }
            nextWaiter += 1
            return nextWaiter
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked again under this lock: every slot may have been freed since the check above (the
                // thread preempted between the two), and a waiter that joins an empty queue then would wait
                // with slots free, and every later caller behind it, until their deadlines (finding 16).
                let outcome = lock.withLock { () -> Result<Bool, CancellationError> in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if running < slots, waiters.isEmpty {
                        running += 1
                        return .success(true)
                    }
                    // The timers' thread runs its actions outside its own lock, so taking it here, inside
                    // this one, cannot deadlock against ``expire(_:after:)``.
                    let timeout = queueing ? queueTimeout.limit(typical: recent.median) : nil
                    let timer = timeout.map { timeout in RequestTimers.shared.schedule(at: .now + timeout) { self.expire(id, after: timeout) } }
                    waiters.append((id, continuation, timer))
                    onQueueDepth(waiters.count)
                    return .success(false)
                }
                switch outcome {
                case .failure(let error): continuation.resume(throwing: error)
                case .success(true): continuation.resume()
                case .success(false): break
                }
            }
        } onCancel: {
            let waiter = removeWaiter(id)
            if let timer = waiter?.timer { RequestTimers.shared.cancel(timer) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Takes waiter `id` out of the queue, if it is still there (cancelled, timed out).
    private func removeWaiter(_ id: UInt64) -> Waiter? {
        lock.withLock {
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            defer { onQueueDepth(waiters.count) }
            return waiters.remove(at: index)
        }
    }

    /// Refuses waiter `id` if it is still waiting when its queue timeout comes.
    private func expire(_ id: UInt64, after timeout: Duration) {
        guard let waiter = removeWaiter(id)?.continuation else { return }
        noteRefusal()
        var error = overloaded()
        error.record.message = "no inference slot came free within \(timeout.milliseconds.formatted(.number.precision(.fractionLength(0...1)))) ms; retry after \(retryAfterSeconds) s"
        waiter.resume(throwing: error)
    }

    /// Hands the slot to the longest waiter, or frees it; `held` is how long the work that ends held it.
    private func releaseSlot(held: Duration) {
        let next = lock.withLock { () -> Waiter? in
            if case .typicalInference = queueTimeout { recent.add(held) }
            if waiters.isEmpty {
                running -= 1
                return nil
            }
            defer { onQueueDepth(waiters.count) }
            return waiters.removeFirst()
        }
        if let timer = next?.timer { RequestTimers.shared.cancel(timer) }
        next?.continuation.resume()
    }

    /// Waiting for a slot now.
    public var queueDepth: Int { lock.withLock { waiters.count } }
}

/// Where a pipeline stage ends: records the stage's time and stops the work when its request was
/// cancelled or its deadline passed.
public struct Checkpoint {
    let flag: CancellationFlag
    let deadline: ContinuousClock.Instant
    private var last = ContinuousClock.now
    public private(set) var timings: [StageTiming] = []

    init(flag: CancellationFlag, deadline: ContinuousClock.Instant) {
        self.flag = flag
        self.deadline = deadline
    }

    /// A checkpoint that never stops the work (tests, warm-up).
    public static var unlimited: Checkpoint { Checkpoint(flag: CancellationFlag(), deadline: .now + .seconds(86_400 * 365)) }

    /// Ends the stage `name`, then checks for cancellation and the deadline.
    public mutating func stage(_ name: String) throws {
        let now = ContinuousClock.now
        let elapsed = now - last
        last = now
        timings.append(StageTiming(stage: name, milliseconds: elapsed.milliseconds))
        try check()
    }

    /// Throws `CancellationError` when the request was cancelled, `deadline_exceeded` when its time is up.
    public func check() throws {
        if flag.isCancelled { throw CancellationError() }
        if ContinuousClock.now >= deadline { throw ServiceError(.deadlineExceeded, "the request did not finish within its deadline") }
    }
}

/// Set once, read from the inference thread.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    var isCancelled: Bool { lock.withLock { cancelled } }
    func cancel() { lock.withLock { cancelled = true } }
}

/// A continuation resumed by whichever comes first: the work's result or the caller's cancellation.
final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var early: Result<T, any Error>?
    private var done = false

    func set(_ continuation: CheckedContinuation<T, any Error>) {
        let pending = lock.withLock { () -> Result<T, any Error>? in
            if let early { done = true; return early }
            self.continuation = continuation
            return nil
        }
        if let pending { continuation.resume(with: pending) }
    }

    func resume(with result: Result<T, any Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<T, any Error>? in
            guard !done else { return nil }
            guard let continuation = self.continuation else {
                if early == nil { early = result }
                return nil
            }
            done = true
            self.continuation = nil
            return continuation
        }
        continuation?.resume(with: result)
    }
}

/// Threads that run inference work, kept between jobs: starting a thread (and mapping its 16 MiB stack)
/// for every request cost the service time on each answer. At most `limit` threads; each leaves after
/// `idleTimeout` without work, so an idle service holds none.
final class WorkerThreads: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var idle = 0
    private var count = 0
    let limit: Int
    let name: String
    let stackSize: Int
    let idleTimeout: TimeInterval

    init(limit: Int, name: String, stackSize: Int, idleTimeout: TimeInterval = 30) {
        (self.limit, self.name, self.stackSize, self.idleTimeout) = (limit, name, stackSize, idleTimeout)
    }

    /// Runs `job` on an idle thread, a new one while under the limit, or else the next one free.
    func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        // More jobs waiting than idle threads to take them: start another thread if allowed.
        let start = jobs.count - head > idle && count < limit
        if start { count += 1 } else { condition.signal() }
        condition.unlock()
        guard start else { return }
        let thread = Thread { self.work() }
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
    }

    private func work() {
        condition.lock()
        while true {
            if head < jobs.count {
                let job = jobs[head]
                head += 1
                if head == jobs.count { (jobs, head) = ([], 0) }
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            idle += 1
            let woken = condition.wait(until: Date(timeIntervalSinceNow: idleTimeout))
            idle -= 1
            if !woken, head == jobs.count {
                count -= 1
                condition.unlock()
                return
            }
        }
    }
}

/// How long an admitted request may wait for an inference slot before it is refused with 503
/// `overloaded` and `Retry-After`.
public enum QueueTimeout: Sendable, Equatable {
    /// Until its deadline (504).
    case none
    /// At most this long.
    case fixed(Duration)
    /// At most `fraction` of the median time the last 32 inferences held their slots; no limit before the
    /// first inference. It follows the machine and the images being sent, so no number needs tuning.
    ///
    /// Worth it with a long queue, where the wait for a slot is most of an accepted request's latency
    /// under overload: with 4 places on 2 cores, half a typical inference cut the accepted p99 at 4× the
    /// capacity from ≤ 22 to ≤ 16 ms, for 8 % fewer 200s (`Scripts/benchmark-serve.py`, 2026-11-27). With
    /// the default single place the wait is already under one inference and the p99 did not move
    /// (≤ 13 ms either way), so the default is ``none``.
    case typicalInference(fraction: Double)

    /// `--queue-timeout auto`: half a typical inference.
    public static let halfTypicalInference = QueueTimeout.typicalInference(fraction: 0.5)

    var isValid: Bool {
        switch self {
        case .none: true
        case .fixed(let duration): duration >= .zero
        case .typicalInference(let fraction): fraction.isFinite && fraction > 0
        }
    }

    /// The limit for a request joining the queue now, given the recent median inference (nil: none yet),
    /// which is worked out only for ``typicalInference(fraction:)``.
    func limit(typical: @autoclosure () -> Duration?) -> Duration? {
        switch self {
        case .none: nil
        case .fixed(let duration): duration
        case .typicalInference(let fraction): typical().map { $0 * fraction }
        }
    }
}

/// The slot times of the last 32 inferences, in a ring.
struct InferenceTimes {
    private var times: [Duration] = []
    private var next = 0
    static let capacity = 32

    mutating func add(_ time: Duration) {
        if times.count < Self.capacity {
            times.append(time)
        } else {
            times[next] = time
        }
        next = (next + 1) % Self.capacity
    }

    /// The median (the upper one of an even count), or nil before the first.
    var median: Duration? {
        guard !times.isEmpty else { return nil }
        return times.sorted()[times.count / 2]
    }
}

/// Requests admitted and refused in two consecutive windows of the overload window's length: the current
/// one and the one before it, so the share always covers between one and two windows of requests.
struct RequestTally {
    /// Fewer requests than this in the two windows never close the queue (a lone refusal is no overload).
    static let minimumCount = 8
    private var start: ContinuousClock.Instant?
    private var current = (admitted: 0, refused: 0)
    private var previous = (admitted: 0, refused: 0)

    mutating func count(refused: Bool, at now: ContinuousClock.Instant, window: Duration?) {
        guard let window else { return }
        roll(to: now, window: window)
        if refused { current.refused += 1 } else { current.admitted += 1 }
    }

    /// Whether more than half of the requests of this window and the one before were refused.
    func isOverloaded(at now: ContinuousClock.Instant, window: Duration) -> Bool {
        guard let start else { return false }
        let elapsed = now - start
        // Windows with no request since are empty: what they held is too old to count.
        let counted = elapsed < window ? (current.admitted + previous.admitted, current.refused + previous.refused)
            : elapsed < window * 2 ? current : (0, 0)
        let total = counted.0 + counted.1
        return total >= Self.minimumCount && counted.1 * 2 > total
    }

    private mutating func roll(to now: ContinuousClock.Instant, window: Duration) {
        guard let start else {
            self.start = now
            return
        }
        let elapsed = now - start
        guard elapsed >= window else { return }
        previous = elapsed < window * 2 ? current : (0, 0)
        current = (0, 0)
        // Windows keep their grid, so a steady stream of requests never stretches one.
        self.start = start + window * Int64(elapsed / window)
    }
}
