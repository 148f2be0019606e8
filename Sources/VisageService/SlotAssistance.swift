import Foundation
import VisageNN

/// Idle cores lent to the requests running: while fewer requests run on ``Admission``'s inference slots
/// than there are slots, a thread kept for it takes parts of a running request's networks
/// (``Assistance``, as the threads of a batch or of the mesh stage's faces do for each other).
///
/// At one connection one request runs at a time, on interpreters of one thread each (the right choice
/// once requests fill the cores), and the second core sat idle; the short-range detector is 1.2–1.6×
/// faster on two threads. Any split of an operator gives the values one thread gives, so the answers
/// do not depend on whether an assistant helped.
///
/// An assistant holds no slot and nothing a request waits for. It joins an invocation only when it
/// starts while a slot is free (``Assistance/wakesOnPublish`` is off otherwise, so while every slot runs
/// a request, as under load, the networks wake no one), and it leaves when a request takes the last free
/// slot (the board's epoch moves: it finishes the operator part in hand, microseconds, and goes), so a
/// newly running request does not share its core with it for longer than that. Nor does it come while
/// requests keep every slot busy with short gaps between them (two connections on two cores: between one
/// answer and the next request a slot is free for about a millisecond): for ``settle`` after every slot
/// last ran a request it stays away, where it would only take a core from the service's own HTTP work
/// and gain nothing.
final class SlotAssistance: @unchecked Sendable {  // Everything below is guarded by `board.condition`.
    let board: Assistance
    private let slots: Int
    /// Seats on the board not held by running work, one per slot.
    private var freeSeats: [Int]
    /// Work holding a seat now.
    private var running = 0
    /// Assistants inside ``Assistance/assistOne()`` now.
    private var assisting = 0
    /// Assistant threads alive: at most `slots - 1`, started as work first runs, leaving after
    /// `idleTimeout` without an invocation to help.
    private var assistants = 0
    private var stopping = false
    private let idleTimeout: TimeInterval
    /// How long after every slot last ran a request the assistant stays away (the board's
    /// `wakesNotBefore` is then that instant plus this).
    let settle: Duration
    /// Times an assistant thread woke up (tests read it).
    private var wakeUps = 0

    init(slots: Int, idleTimeout: TimeInterval = 30, settle: Duration = .milliseconds(20)) {
        self.slots = slots
        self.idleTimeout = idleTimeout
        self.settle = settle
        board = Assistance(seats: slots)
        freeSeats = Array((0 ..< slots).reversed())
    }

    private var condition: NSCondition { board.condition }

    /// Takes a seat for work starting on a slot; the work runs with it bound (`Assistance.$seat`), and
    /// gives it back with ``leave(_:)`` before its slot goes to anyone else.
    func take() -> Assistance.Seat {
        condition.lock()
        running += 1
        if running == slots { board.wakesNotBefore = .now + settle }
        precondition(!freeSeats.isEmpty, "more work running than slots")
        let seat = board.seat(freeSeats.removeLast())
        spareChanged()
        let start = assistants < slots - 1 && !stopping
        if start { assistants += 1 }
        condition.unlock()
        if start {
            let thread = Thread { self.assist() }
            thread.name = "visage assistant"
            thread.stackSize = 1 << 20
            thread.start()
        }
        return seat
    }

    func leave(_ seat: Assistance.Seat) {
        condition.lock()
        if running == slots { board.wakesNotBefore = .now + settle }
        running -= 1
        freeSeats.append(seat.index)
        spareChanged()
        condition.unlock()
    }

    /// Whether an assistant is helping a request's network now, and how many times one has woken.
    var state: (assisting: Bool, wakeUps: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (assisting > 0, wakeUps)
    }

    /// Lets the assistant threads end (the admission goes away).
    func stop() {
        condition.lock()
        stopping = true
        board.changed()
        condition.broadcast()
        condition.unlock()
    }

    /// With `condition` held, after `running` or `assisting` changed: invocations wake the assistants
    /// only while one of them may help, and assistants beyond the free slots leave the invocation they
    /// help.
    private func spareChanged() {
        board.wakesOnPublish = assisting < slots - running
        if assisting > slots - running { board.changed() }
    }

    private func assist() {
        condition.lock()
        while !stopping {
            // The board's own rule for waking one: a slot is free for it (``spareChanged()`` keeps
            // `wakesOnPublish`), and every slot last ran a request ``settle`` ago at least.
            if board.wakesNow {
                assisting += 1
                spareChanged()
                let helped = board.assistOne()
                assisting -= 1
                spareChanged()
                if helped { continue }
            }
            let woken = condition.wait(until: Date(timeIntervalSinceNow: idleTimeout))
            wakeUps += 1
            if !woken, running == 0 { break }
        }
        assistants -= 1
        condition.unlock()
    }
}
