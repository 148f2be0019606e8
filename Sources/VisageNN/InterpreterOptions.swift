/// How an ``Interpreter`` runs.
public struct InterpreterOptions: Equatable, Sendable {
    /// Threads one operator may split its output rows over: the calling thread plus `threads - 1`
    /// helpers the interpreter keeps for its life. 1 (the default) runs everything on the calling
    /// thread, which is best when other work (other images, other requests) already fills the cores.
    public var threads: Int

    public init(threads: Int = 1) {
        self.threads = max(1, threads)
    }
}
