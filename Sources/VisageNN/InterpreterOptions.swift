/// How an ``Interpreter`` runs.
public struct InterpreterOptions: Equatable, Sendable {
    /// Threads one operator may split its output rows over. 1 (the default) runs everything on the
    /// calling thread, which is fastest for single small images on a busy machine.
    public var threads: Int

    public init(threads: Int = 1) {
        self.threads = max(1, threads)
    }
}
