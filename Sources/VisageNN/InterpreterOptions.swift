/// How an ``Interpreter`` runs.
public struct InterpreterOptions: Equatable, Sendable {
    /// Threads one operator may share its output over: the calling thread plus `threads - 1`
    /// helpers the interpreter keeps for its life. nil (the default) lets the interpreter choose
    /// per model by a size rule: as many as its operators are large enough to share, up to the
    /// cores this process may run on (``Interpreter/threads`` says how many it took). 1 runs
    /// everything on the calling thread, which is best when other work (other images, other
    /// requests) already fills the cores; only a thread with nothing of its own to run (a thread of
    /// the same run of independent jobs that has none left, or the service's assistant while an
    /// inference slot is free) may then take parts of an invocation (``Assistance``).
    public var threads: Int?

    /// Whether convolutions compute one pixel of each run of pixels known to come out equal (a
    /// letterbox's constant bands, ``UniformRows``) and copy it over the rest. The values are the
    /// same either way, bit for bit; tests turn it off to check that.
    package var skipsUniformColumns = true

    /// - Parameter threads: nil to choose per model, otherwise at least 1.
    public init(threads: Int? = nil) {
        self.threads = threads.map { max(1, $0) }
    }
}
