import Dispatch
import Foundation
import VisageImage
import VisageNN

/// Pieces of one image's work that share nothing (accurate mode's windows and turned views, the mesh
/// stage's faces), run side by side on the cores.
///
/// Results come back in the pieces' order, and the first error by that order is thrown, so callers
/// merge exactly what a serial loop would have given: the output is identical, only sooner. Each piece
/// borrows its own interpreter from the runners' pools, which is what makes them independent.
package enum IndependentWork {
    /// Runs every piece on the calling thread, in order: the serial reference the tests compare with.
    @TaskLocal package static var runsSerially = false

    /// Threads a run of pieces takes at most: the CPUs this process may run on (`taskset` counts).
    /// Read once: Foundation reads the cgroup files on every call.
    static let cores = AvailableCores.count

    /// `piece(0)` … `piece(count - 1)`, concurrently when there are several.
    package static func map<T>(_ count: Int, _ piece: (Int) throws(FaceDetectionError) -> T) throws(FaceDetectionError) -> [T] {
        guard count > 1, !runsSerially else { return try (0 ..< count).map { index throws(FaceDetectionError) in try piece(index) } }
        let slots = UnsafeMutableBufferPointer<Result<T, FaceDetectionError>?>.allocate(capacity: count)
        slots.initialize(repeating: nil)
        defer {
            slots.deinitialize()
            slots.deallocate()
        }
        withoutActuallyEscaping(piece) { piece in
            // concurrentPerform returns when every piece is done, and each writes only its own slot.
            let shared = Unchecked((piece, slots))
            DispatchQueue.concurrentPerform(iterations: count) { index in
                let (piece, slots) = shared.value
                slots[index] = Result { () throws(FaceDetectionError) in try piece(index) }
            }
        }
        return try slots.map { slot throws(FaceDetectionError) in try slot!.get() }
    }

    /// Chains of steps: chain `index` runs `step(index, nil)`, then `step(index, state)` with the state each
    /// step hands on, until a step gives its result (the mesh stage's faces: a face's first mesh pass, its
    /// refinement passes, then its blendshapes, pose and quality, each pass needing the one before).
    ///
    /// Steps, not chains, are what the threads take: a chain's next step joins the back of the queue, so
    /// the first steps of every chain run first, then the second ones, and so on. At the end a thread
    /// waits at most for one step of another chain, not for a whole chain (session 13's trace on the AVX2
    /// machine: faces of 9.5–24 ms, of one to three passes, left the other core idle for 5–10 ms at the end). Results come back in the chains' order,
    /// and the error thrown is the serial run's: the first failing chain's.
    package static func chains<State, R>(
        _ count: Int, _ step: (Int, State?) throws(FaceDetectionError) -> ChainStep<State, R>
    ) throws(FaceDetectionError) -> [R] {
        let threads = min(cores, count)
        guard threads > 1, !runsSerially else {
            return try (0 ..< count).map { index throws(FaceDetectionError) in
                var state: State?
                while true {
                    switch try step(index, state) {
                    case .next(let next): state = next
                    case .done(let result): return result
                    }
                }
            }
        }
        let queue = ChainQueue<State, R>(count: count, threads: threads)
        withoutActuallyEscaping(step) { step in
            // concurrentPerform returns when every worker has left the queue, which is when every chain
            // has its result; each step's state passes through the queue's lock.
            let shared = Unchecked(step)
            DispatchQueue.concurrentPerform(iterations: threads) { seat in
                let step = shared.value
                Assistance.$seat.withValue(queue.assistance.seat(seat)) {
                    while let (index, state) = queue.next() {
                        queue.finished(index, Result { () throws(FaceDetectionError) in try step(index, state) })
                    }
                }
            }
        }
        return try queue.results()
    }

    /// Two rounds of pieces without a pause between them: `piece(0)` … `piece(count - 1)`; then, as
    /// soon as all of them are done, `plan` of their results, which says how many follow-up pieces they
    /// need, and `followUp(plan, 0)` …; and beside both, `filler(0)` … `filler(fillers - 1)`, pieces
    /// that need nothing from the others (accurate mode's windows, then the checks of the faces only
    /// some windows found, and the turned views beside them).
    ///
    /// Threads that would wait for the last piece of the first round, or sit idle while the follow-ups
    /// run, take fillers instead: follow-ups join the queue ahead of the fillers not yet started. The
    /// result is the serial one (pieces, plan, follow-ups, then fillers, in that order), and so is the
    /// error thrown: the first by that order.
    package static func map<T, Plan, U, F>(
        _ count: Int, _ piece: (Int) throws(FaceDetectionError) -> T,
        then plan: ([T]) throws(FaceDetectionError) -> (plan: Plan, followUps: Int),
        _ followUp: (Plan, Int) throws(FaceDetectionError) -> U,
        alongside fillers: Int, _ filler: (Int) throws(FaceDetectionError) -> F
    ) throws(FaceDetectionError) -> (pieces: [T], plan: Plan, followUps: [U], fillers: [F]) {
        let threads = min(cores, count + fillers)
        guard threads > 1, count > 0, !runsSerially else {
            let pieces = try (0 ..< count).map { index throws(FaceDetectionError) in try piece(index) }
            let (planned, followUps) = try plan(pieces)
            let followed = try (0 ..< followUps).map { index throws(FaceDetectionError) in try followUp(planned, index) }
            return (pieces, planned, followed, try (0 ..< fillers).map { index throws(FaceDetectionError) in try filler(index) })
        }
        let queue = RoundQueue<T, Plan, U, F>(count: count, fillers: fillers, threads: threads)
        withoutActuallyEscaping(piece) { piece in
            withoutActuallyEscaping(plan) { plan in
                withoutActuallyEscaping(followUp) { followUp in
                    withoutActuallyEscaping(filler) { filler in
                        // concurrentPerform returns when every worker has left the queue, which is
                        // when every job is done; each job writes only its own slot.
                        let shared = Unchecked((piece, plan, followUp, filler))
                        DispatchQueue.concurrentPerform(iterations: threads) { seat in
                            let (piece, plan, followUp, filler) = shared.value
                            Assistance.$seat.withValue(queue.assistance.seat(seat)) {
                                while let job = queue.next() {
                                    switch job {
                                    case .piece(let index):
                                        let result = Result { () throws(FaceDetectionError) in try piece(index) }
                                        if let pieces = queue.finished(piece: index, result) {
                                            // The last of the first round: plan the second here, then queue it.
                                            queue.planned(Result { () throws(FaceDetectionError) in try plan(pieces) })
                                        }
                                    case .followUp(let index):
                                        let planned = queue.plan!
                                        queue.finished(followUp: index, Result { () throws(FaceDetectionError) in try followUp(planned, index) })
                                    case .filler(let index):
                                        queue.finished(filler: index, Result { () throws(FaceDetectionError) in try filler(index) })
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return try queue.results()
    }
}

/// What a step of ``IndependentWork/chains(_:_:)`` gives: the state its chain's next step starts from,
/// or the chain's result.
package enum ChainStep<State, Result> {
    case next(State)
    case done(Result)
}

/// The shared state of ``IndependentWork/chains(_:_:)``: the steps ready to run, oldest first, and each
/// chain's result, guarded by one condition lock (taken twice per step, which lasts milliseconds).
/// A thread with no step to take lends itself to another's running network meanwhile (``Assistance``).
private final class ChainQueue<State, R>: @unchecked Sendable {
    let assistance: Assistance
    private var condition: NSCondition { assistance.condition }
    private var ready: [(index: Int, state: State?)]
    private var nextReady = 0
    private var unfinished: Int
    private var outcomes: [Result<R, FaceDetectionError>?]

    init(count: Int, threads: Int) {
        assistance = Assistance(seats: threads)
        ready = (0 ..< count).map { ($0, nil) }
        unfinished = count
        outcomes = Array(repeating: nil, count: count)
    }

    /// The oldest ready step, assisting or waiting while none is ready but a chain is still running;
    /// nil when every chain has its result.
    func next() -> (index: Int, state: State?)? {
        condition.lock()
        defer { condition.unlock() }
        while nextReady == ready.count, unfinished > 0 {
            if !assistance.assistOne() { condition.wait() }
        }
        guard nextReady < ready.count else { return nil }
        let step = ready[nextReady]
        ready[nextReady].state = nil  // the state's memory goes with the step that takes it
        nextReady += 1
        return step
    }

    /// Queues the chain's next step at the back, or stores its result (a failure ends the chain).
    func finished(_ index: Int, _ outcome: Result<ChainStep<State, R>, FaceDetectionError>) {
        condition.lock()
        defer { condition.unlock() }
        switch outcome {
        case .success(.next(let state)):
            ready.append((index, state))
            assistance.changed()
            condition.signal()
        case .success(.done(let result)):
            outcomes[index] = .success(result)
            unfinished -= 1
        case .failure(let error):
            outcomes[index] = .failure(error)
            unfinished -= 1
        }
        if unfinished == 0 {
            assistance.changed()
            condition.broadcast()
        }
    }

    /// Every chain's result in order, or the first failing chain's error. Called after every chain ended.
    func results() throws(FaceDetectionError) -> [R] {
        try outcomes.map { slot throws(FaceDetectionError) in try slot!.get() }
    }
}

/// The shared state of ``IndependentWork/map(_:_:then:_:alongside:_:)``: the jobs not yet started and
/// every job's result, guarded by one condition lock (taken twice per job, which lasts milliseconds).
/// A thread with no job to take lends itself to another's running network meanwhile (``Assistance``),
/// until the last job is done.
private final class RoundQueue<T, Plan, U, F>: @unchecked Sendable {
    enum Job { case piece(Int), followUp(Int), filler(Int) }

    let assistance: Assistance
    private var condition: NSCondition { assistance.condition }
    private var jobs: [Job]
    private var nextJob = 0
    /// Jobs handed out and not yet finished.
    private var running = 0
    /// First-round pieces not yet finished (at least one to begin with); the second round is known
    /// once this is 0 and the plan is in.
    private var unfinishedPieces: Int
    private var secondRoundKnown = false
    private var pieces: [Result<T, FaceDetectionError>?]
    private var planResult: Result<(plan: Plan, followUps: Int), FaceDetectionError>?
    private var followUps: [Result<U, FaceDetectionError>?] = []
    private var fillers: [Result<F, FaceDetectionError>?]
    /// Written once, before any follow-up is queued; read only by follow-ups.
    private(set) var plan: Plan?

    init(count: Int, fillers: Int, threads: Int) {
        assistance = Assistance(seats: threads)
        jobs = (0 ..< count).map { .piece($0) } + (0 ..< fillers).map { .filler($0) }
        unfinishedPieces = count
        pieces = Array(repeating: nil, count: count)
        self.fillers = Array(repeating: nil, count: fillers)
    }

    /// The next job, assisting or waiting while there is none yet but the second round may still bring
    /// some, or others' jobs still run; nil when every job is done.
    func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while nextJob == jobs.count, !secondRoundKnown || running > 0 {
            if !assistance.assistOne() { condition.wait() }
        }
        guard nextJob < jobs.count else { return nil }
        nextJob += 1
        running += 1
        return jobs[nextJob - 1]
    }

    /// One job fewer running, with `condition` held: the last one lets the idle threads leave.
    private func jobEnded() {
        running -= 1
        if running == 0 {
            assistance.changed()
            condition.broadcast()
        }
    }

    /// Stores a first-round result; returns every result when it was the last one and all succeeded
    /// (the caller then plans the second round), and ends the first round without one otherwise.
    func finished(piece index: Int, _ result: Result<T, FaceDetectionError>) -> [T]? {
        condition.lock()
        defer { condition.unlock() }
        pieces[index] = result
        unfinishedPieces -= 1
        jobEnded()
        guard unfinishedPieces == 0 else { return nil }
        var values: [T] = []
        for case let piece? in pieces {
            guard case .success(let value) = piece else {
                // The serial run throws this error before any plan: no second round.
                secondRoundKnown = true
                assistance.changed()
                condition.broadcast()
                return nil
            }
            values.append(value)
        }
        return values
    }

    /// Queues the second round ahead of the fillers not yet started.
    func planned(_ result: Result<(plan: Plan, followUps: Int), FaceDetectionError>) {
        condition.lock()
        defer { condition.unlock() }
        planResult = result
        if case .success(let planned) = result {
            plan = planned.plan
            followUps = Array(repeating: nil, count: planned.followUps)
            jobs.insert(contentsOf: (0 ..< planned.followUps).map { .followUp($0) }, at: nextJob)
        }
        secondRoundKnown = true
        assistance.changed()
        condition.broadcast()
    }

    func finished(followUp index: Int, _ result: Result<U, FaceDetectionError>) {
        condition.lock()
        followUps[index] = result
        jobEnded()
        condition.unlock()
    }

    func finished(filler index: Int, _ result: Result<F, FaceDetectionError>) {
        condition.lock()
        fillers[index] = result
        jobEnded()
        condition.unlock()
    }

    /// Every result in the serial order, or the first error by that order. Called after every job is done.
    func results() throws(FaceDetectionError) -> (pieces: [T], plan: Plan, followUps: [U], fillers: [F]) {
        let pieces = try self.pieces.map { slot throws(FaceDetectionError) in try slot!.get() }
        let planned = try planResult!.get()
        let followUps = try self.followUps.map { slot throws(FaceDetectionError) in try slot!.get() }
        return (pieces, planned.plan, followUps, try fillers.map { slot throws(FaceDetectionError) in try slot!.get() })
    }
}
