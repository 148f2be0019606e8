import Foundation

/// The requests' timers (the slow-body timeout, the deadline), all fired by one thread.
///
/// Each request used to sleep in a task of its own (`Task.sleep`) beside its work, and that task was
/// started, woken and cancelled on every request, even the 99.9 % that finish long before their timers.
/// Here a timer is an entry in a table: scheduling takes a lock and, almost always, wakes nobody (a new
/// request's deadline is later than the earliest waiting one), and cancelling only removes the entry.
/// The thread sleeps until the earliest entry; one that was cancelled meanwhile costs it a scan.
final class RequestTimers: @unchecked Sendable {
    static let shared = RequestTimers()

    private let condition = NSCondition()
    private var entries: [UInt64: (at: ContinuousClock.Instant, action: @Sendable () -> Void)] = [:]
    private var lastID: UInt64 = 0
    /// When the thread wakes next; nil while it waits for a first entry.
    private var wakeAt: ContinuousClock.Instant?
    private var started = false

    /// Runs `action` on the timers' thread at `instant` unless ``cancel(_:)`` comes first.
    func schedule(at instant: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        lastID += 1
        entries[lastID] = (instant, action)
        if !started {
            started = true
            let thread = Thread { self.run() }
            thread.name = "visage timers"
            thread.start()
        }
        if wakeAt.map({ instant < $0 }) ?? true { condition.signal() }
        return lastID
    }

    func cancel(_ id: UInt64) {
        condition.lock()
        entries[id] = nil
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            let now = ContinuousClock.now
            var due: [@Sendable () -> Void] = []
            var earliest: ContinuousClock.Instant?
            for (id, entry) in entries {
                if entry.at <= now {
                    due.append(entry.action)
                    entries[id] = nil
                } else if earliest.map({ entry.at < $0 }) ?? true {
                    earliest = entry.at
                }
            }
            if !due.isEmpty {
                condition.unlock()
                for action in due { action() }
                condition.lock()
                continue
            }
            wakeAt = earliest
            if let earliest {
                _ = condition.wait(until: Date(timeIntervalSinceNow: (earliest - now).seconds))
            } else {
                condition.wait()
            }
        }
    }
}
