/// A model ready to run: the operations in order, where each tensor lives, and the arena size.
///
/// Built once by ``Planner`` and shared (immutably) by every interpreter of the model.
struct ExecutionPlan: Sendable {
    var operations: [any Operation]
    /// Indexed by tensor id.
    var placements: [TensorPlacement]
    /// Floats of activation memory one interpreter needs.
    var arenaCount: Int
    /// Float constants operations read at run time (small: scalars, slopes, biases of elementwise ops).
    var constants: [Float]
    var memory: MemoryReport
    /// Indexed by tensor id: each tensor's shape (what ``UniformRows`` tracks).
    var shapes: [[Int]]
}
