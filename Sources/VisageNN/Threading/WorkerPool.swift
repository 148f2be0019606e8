#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CVisageKernels
import Synchronization

/// Threads kept for one interpreter, so that splitting an operator costs a store and a few
/// loads, not a thread wake-up: operators last 5–100 µs, and waking a parked thread costs about
/// as much as a small one.
///
/// After each job the helpers spin for ``spinSeconds`` before they park, so they are awake for the
/// next operator of the same invocation but do not burn a core between frames. They spin without
/// `sched_yield`: on Linux's EEVDF scheduler a yield hands the core to any runnable process, a
/// nice-19 build included, for its whole slice (0.75 ms), and a helper that yielded while the caller
/// ran a 16 µs serial operator missed the next dozens of operators (full range's second thread gave
/// 1.0× on its last 45 layers with two builds running). The calling thread always takes parts too: when the machine is busy and a helper is
/// slow to wake, the caller simply runs more of the parts itself.
///
/// A job's part count and the next part to hand out live in one atomic word, so a helper that
/// claims a part of a newer job than it expected just runs that part: there is no window in which
/// it could mix one job's closure with another's range. The caller publishes each job with part 0
/// already taken and runs it first: a spinning helper that saw the job before the caller claimed
/// would otherwise take the first band now and then, and the next operator's bands would read
/// activations the other core wrote.
package final class WorkerPool: @unchecked Sendable {
    /// Threads besides the caller.
    package let helperCount: Int

    /// `job << 40 | parts << 20 | next`: bumped by the caller to publish a job, added to by whoever claims a part.
    private let claim = Atomic<UInt64>(0)
    /// Parts of the current job not yet finished.
    private let unfinished = Atomic<Int>(0)
    private let sleepers = Atomic<Int>(0)
    /// Threads lending themselves to this pool for a while (``assist(while:)``), besides its helpers.
    private let guests = Atomic<Int>(0)
    /// Parts guests have run, over the pool's life (tests read it).
    private let guestParts = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// The current job's body. Written only by the caller before it publishes the job, read only by
    /// a thread holding an unfinished part of that job, cleared before the caller returns.
    private var body: ((Int) -> Void)?
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var threads: [pthread_t] = []

    /// How long a helper keeps polling after a job before it parks.
    static let spinSeconds = 0.000_3
    /// How long the caller waits for a helper's part before each further poll also yields the core
    /// (the helper may have been preempted onto this same core). Shorter waits only spin: a yield
    /// hands the core to whatever else could run there, even a nice-19 build, for a time slice
    /// (milliseconds), while the other thread waits for this one at the operator's end.
    static let callerSpinSeconds = 0.000_5
    private static let maximumParts = (1 << 20) - 1

    package init(helpers: Int) {
        helperCount = max(0, helpers)
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        for _ in 0 ..< helperCount {
            let context = Unmanaged.passRetained(WorkerContext(pool: self)).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, { context in
                let worker = Unmanaged<WorkerContext>.fromOpaque(context!).takeRetainedValue()
                worker.pool.helperLoop()
                return nil
            }, context)
            if status == 0 {
                threads.append(thread)
            } else {
                Unmanaged<WorkerContext>.fromOpaque(context).release()
            }
        }
    }

    deinit {
        stopping.store(true, ordering: .sequentiallyConsistent)
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        for thread in threads { pthread_join(thread, nil) }
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Threads that may take parts now: the caller, the helpers and the guests assisting at this moment.
    package var threadCount: Int {
        helperCount + 1 + guests.load(ordering: .relaxed)
    }

    /// Parts of this pool's jobs that guests (``assist(while:)``) have run so far.
    package var partsRunByGuests: Int {
        guestParts.load(ordering: .relaxed)
    }

    /// Runs `body(0)` … `body(parts - 1)`, on the caller, the helpers and any guests, and returns when all are done.
    package func run(parts: Int, _ body: (Int) -> Void) {
        precondition(parts <= Self.maximumParts)
        guard parts > 1, !threads.isEmpty || guests.load(ordering: .relaxed) > 0 else {
            for part in 0 ..< parts { body(part) }
            return
        }
        withoutActuallyEscaping(body) { body in
            self.body = body
            unfinished.store(parts, ordering: .relaxed)
            let job = (claim.load(ordering: .relaxed) >> 40) &+ 1
            // Part 0 is the caller's before the job is published, so the helpers start at part 1:
            // the caller keeps the first band of every operator (the band whose input it wrote).
            claim.store(job << 40 | UInt64(parts) << 20 | 1, ordering: .sequentiallyConsistent)
            if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
                pthread_mutex_lock(mutex)
                pthread_cond_broadcast(condition)
                pthread_mutex_unlock(mutex)
            }
            body(0)
            unfinished.subtract(1, ordering: .releasing)
            runClaimedParts()
            var polls = 0, yielding = false
            let start = ContinuousClock.now, patience = Duration.seconds(Self.callerSpinSeconds)
            while unfinished.load(ordering: .acquiring) > 0 {
                polls += 1
                if yielding {
                    sched_yield()
                } else {
                    visage_spin_hint()
                    if polls & 63 == 0, ContinuousClock.now - start > patience { yielding = true }
                }
            }
            self.body = nil
        }
    }

    /// Claims and runs parts until none is left; returns the job it found exhausted and how many parts it ran.
    @discardableResult
    private func runClaimedParts() -> (job: UInt64, ran: Int) {
        var ran = 0
        while true {
            let word = claim.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
            let parts = Int(word >> 20 & UInt64(Self.maximumParts)), next = Int(word & UInt64(Self.maximumParts))
            guard next < parts else { return (word >> 40, ran) }
            ran += 1
            // Holding an unfinished part keeps the job, and so `body`, in place.
            body.unsafelyUnwrapped(next)
            unfinished.subtract(1, ordering: .releasing)
        }
    }

    /// Lends the calling thread to this pool: it takes parts of the jobs the pool's caller publishes,
    /// as a helper does, while `keepGoing()` holds (checked between parts and while polling, so it
    /// must be cheap), and polls without parking in between. The caller splits its operators for
    /// one more thread while a guest is here (``threadCount``); any split gives the values one
    /// thread gives, so a guest changes only who computes them. Used by a thread that has run out of
    /// its own work while another's job still runs (``Assistance``). Returns the parts it ran.
    @discardableResult
    package func assist(while keepGoing: () -> Bool) -> Int {
        guests.add(1, ordering: .sequentiallyConsistent)
        defer { guests.subtract(1, ordering: .sequentiallyConsistent) }
        // A job already published (even one exhausted) may be joined: a part is claimed only while
        // the job has parts left, and holding it keeps the job's body in place.
        var finishedJob: UInt64 = .max
        var total = 0
        while keepGoing() {
            if claim.load(ordering: .acquiring) >> 40 != finishedJob {
                let (job, ran) = runClaimedParts()
                finishedJob = job
                if ran > 0 { guestParts.add(ran, ordering: .relaxed) }
                total += ran
                continue
            }
            visage_spin_hint()
        }
        return total
    }

    private func helperLoop() {
        var finishedJob: UInt64 = 0
        while !stopping.load(ordering: .relaxed) {
            if claim.load(ordering: .acquiring) >> 40 != finishedJob {
                finishedJob = runClaimedParts().job
                continue
            }
            if !waitForJob(after: finishedJob) { return }
        }
    }

    /// Polls for a job newer than `finishedJob`, then parks; false when the pool is stopping.
    private func waitForJob(after finishedJob: UInt64) -> Bool {
        let start = ContinuousClock.now, patience = Duration.seconds(Self.spinSeconds)
        var polls = 0
        while claim.load(ordering: .acquiring) >> 40 == finishedJob {
            if stopping.load(ordering: .relaxed) { return false }
            polls += 1
            if polls & 15 == 0, ContinuousClock.now - start > patience {
                pthread_mutex_lock(mutex)
                sleepers.add(1, ordering: .sequentiallyConsistent)
                while claim.load(ordering: .sequentiallyConsistent) >> 40 == finishedJob, !stopping.load(ordering: .sequentiallyConsistent) {
                    pthread_cond_wait(condition, mutex)
                }
                sleepers.subtract(1, ordering: .sequentiallyConsistent)
                pthread_mutex_unlock(mutex)
                return !stopping.load(ordering: .relaxed)
            }
            visage_spin_hint()
        }
        return true
    }
}

/// What a helper thread's start routine receives: the pool, retained for the thread's first instant.
private final class WorkerContext {
    unowned(unsafe) let pool: WorkerPool
    init(pool: WorkerPool) { self.pool = pool }
}
