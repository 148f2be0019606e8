/// Where a tensor's values live while an interpreter runs.
enum TensorPlacement: Sendable, Equatable {
    /// Not read or written at run time (a packed weight, a folded constant, an integer parameter).
    case none
    /// At this float offset in the interpreter's arena.
    case arena(Int)
    /// At this float offset in the plan's run-time constants, which each interpreter copies once.
    case constant(Int)
}
