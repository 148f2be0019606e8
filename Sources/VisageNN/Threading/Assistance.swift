import Foundation
import Synchronization

/// Threads running independent jobs side by side (one image's windows, or its faces' mesh passes)
/// that lend themselves to each other's interpreters once they run out of jobs of their own.
///
/// Without it, the end of such a run leaves a core idle while another finishes its last job (a
/// mesh pass of about 7 ms on the AVX2 machine), and so does any wait for work the others are
/// still producing. Each job thread holds a ``Seat`` (bound with `Assistance.$seat.withValue`);
/// an ``Interpreter`` invoked there shows its ``WorkerPool`` on the board for the invocation's
/// length, and an idle thread of the same run calls ``assistOne()`` to take parts of its
/// operators (``WorkerPool/assist(while:)``). Any split of an operator gives the values one thread
/// gives, so the results do not depend on who helped. The service keeps a board too, one seat per
/// inference slot: while a slot is free, an assistant thread helps the running requests' networks.
///
/// The board shares its owner's condition: the owner's queue waits on it, and an interpreter
/// starting an invocation wakes the waiters so they can assist (unless ``wakesOnPublish`` is off).
package final class Assistance: @unchecked Sendable {  // `pools` is guarded by `condition`.
    /// The seat of the job running on this thread, when it runs under an assistance board.
    @TaskLocal package static var seat: Seat?

    /// One job thread's place on a board.
    package struct Seat: Sendable {
        package let board: Assistance
        package let index: Int
    }

    /// The owner's lock and condition, which also guard the board.
    package let condition = NSCondition()
    /// The pool of the interpreter each seat is invoking, if any.
    private var pools: [WorkerPool?]
    /// Bumped when an invocation starts or ends and when the owner has news (``changed()``):
    /// an assisting thread then stops and goes back to its owner's queue.
    private let epoch = Atomic<Int>(0)
    /// Whether an invocation's start wakes the threads waiting on `condition`. An owner whose waiting
    /// threads may not assist for now (the service, while every inference slot runs a request of its
    /// own) turns it off, so its invocations cost no wake-ups then. Guarded by `condition`.
    package var wakesOnPublish = true
    /// When set, an invocation's start wakes no one before this instant either (an owner whose threads
    /// should keep away for a while). Guarded by `condition`.
    package var wakesNotBefore: ContinuousClock.Instant?
    /// Whether an invocation starting now would wake the waiting threads (``wakesOnPublish`` and
    /// ``wakesNotBefore``): an owner asks it too before letting a thread assist. Read with `condition` held.
    package var wakesNow: Bool {
        wakesOnPublish && (wakesNotBefore.map { ContinuousClock.now >= $0 } ?? true)
    }
    /// Operator parts threads have run through ``assistOne()``, over the board's life (tests read it).
    private let partsRun = Atomic<Int>(0)

    package init(seats: Int) {
        pools = Array(repeating: nil, count: seats)
    }

    /// Operator parts threads have run through ``assistOne()`` so far.
    package var partsRunByAssistants: Int {
        partsRun.load(ordering: .relaxed)
    }

    package func seat(_ index: Int) -> Seat {
        Seat(board: self, index: index)
    }

    /// Tells assisting threads to come back (new work is queued, or everything is done). Called by
    /// the owner with `condition` held, beside its own signal or broadcast.
    package func changed() {
        epoch.add(1, ordering: .releasing)
    }

    func publish(_ pool: WorkerPool, at index: Int) {
        condition.lock()
        pools[index] = pool
        epoch.add(1, ordering: .releasing)
        if wakesNow { condition.broadcast() }
        condition.unlock()
    }

    func withdraw(at index: Int) {
        condition.lock()
        pools[index] = nil
        epoch.add(1, ordering: .releasing)
        condition.unlock()
    }

    /// With `condition` held: helps an interpreter another seat is invoking until something changes
    /// (that invocation ends, another starts, or the owner calls ``changed()``), then returns true
    /// with `condition` held again; false at once when no seat is invoking one (the caller then
    /// waits on `condition`, which the next invocation's start broadcasts).
    package func assistOne() -> Bool {
        guard let pool = pools.first(where: { $0 != nil }) ?? nil else { return false }
        let seen = epoch.load(ordering: .acquiring)
        condition.unlock()
        let ran = pool.assist { epoch.load(ordering: .acquiring) == seen }
        if ran > 0 { partsRun.add(ran, ordering: .relaxed) }
        condition.lock()
        return true
    }
}
