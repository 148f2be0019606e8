/// Runs a ``Model``: owns the arena that holds every activation, reused across calls.
///
/// Create one per task (it is not `Sendable`); any number may share one model. `invoke()`
/// allocates nothing: inputs, outputs and intermediates all live in the arena planned at load.
public final class Interpreter {
    public let model: Model
    public let options: InterpreterOptions
    /// Arena, then the plan's run-time constants, on a cache line: the planner places every tensor at a
    /// multiple of 16 floats from its start.
    private let storage: AlignedFloats
    /// Indexed by tensor id.
    private let pointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// The helper threads operators split over, kept for the interpreter's life (none at 1 thread),
    /// and the door for threads that lend themselves to an invocation (``Assistance``).
    private let workers: Workers
    /// Threads operators may share their work over, the calling thread included: the options'
    /// count, or the one chosen for this model when the options leave it open.
    public let threads: Int
    /// What this invocation knows of its activations' uniform rows, when the options let
    /// convolutions skip them.
    private let uniformRows: UniformRows?

    public init(model: Model, options: InterpreterOptions = .init()) throws(ModelError) {
        self.model = model
        self.options = options
        let plan = model.plan
        // Bounded at load: the arena by `Graph.activationByteLimit`, the constants by the file's own bytes.
        storage = AlignedFloats(count: plan.arenaCount + plan.constants.count)
        let storage = self.storage.base
        plan.constants.withUnsafeBufferPointer { constants in
            if let base = constants.baseAddress {
                (storage + plan.arenaCount).update(from: base, count: constants.count)
            }
        }
        threads = options.threads ?? AutomaticThreads.count(for: plan.operations)
        workers = Workers(pool: WorkerPool(helpers: threads - 1))
        uniformRows = options.skipsUniformColumns ? UniformRows(shapes: plan.shapes) : nil
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: max(plan.placements.count, 1))
        self.pointers = pointers
        for (tensor, placement) in plan.placements.enumerated() {
            switch placement {
            case .none: (pointers + tensor).initialize(to: storage)
            case .arena(let offset): (pointers + tensor).initialize(to: storage + offset)
            case .constant(let offset): (pointers + tensor).initialize(to: storage + plan.arenaCount + offset)
            }
        }
    }

    deinit {
        pointers.deallocate()
    }

    /// Lets `body` fill input `index` (row-major, `model.inputs[index].shape`).
    public func withInput<R>(_ index: Int = 0, _ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        precondition(model.inputs.indices.contains(index), "input \(index) out of range: the model has \(model.inputs.count)")
        return try body(UnsafeMutableBufferPointer(start: pointers[model.inputTensors[index]], count: model.inputs[index].elementCount))
    }

    /// Lets `body` fill the input called `name`.
    /// - Throws: ``ModelError/unknownTensor(name:)`` when there is none, or what `body` throws.
    public func withInput<R>(named name: String, _ body: (UnsafeMutableBufferPointer<Float>) throws -> R) throws -> R {
        guard let index = model.inputIndex(named: name) else { throw ModelError.unknownTensor(name: name) }
        return try withInput(index, body)
    }

    /// Runs every operation once, reading the inputs and writing the outputs.
    ///
    /// Under an ``Assistance`` seat (independent jobs run side by side), threads that have run out of
    /// their own jobs may take parts of this invocation's operators meanwhile; the values are the
    /// same whoever computes them.
    public func invoke() throws(ModelError) {
        startInvocation()
        guard let seat = Assistance.seat, let pool = workers.pool else {
            runOperations()
            return
        }
        seat.board.publish(pool, at: seat.index)
        defer { seat.board.withdraw(at: seat.index) }
        runOperations()
    }

    /// Operator parts that threads lending themselves to this interpreter's invocations have run (``Assistance``).
    package var partsRunByAssistants: Int {
        workers.pool?.partsRunByGuests ?? 0
    }

    private func runOperations() {
        for operation in model.plan.operations {
            run(operation)
        }
    }

    /// Forgets the last invocation's uniform rows and scans the inputs for new ones.
    private func startInvocation() {
        guard let uniformRows else { return }
        uniformRows.reset()
        for tensor in model.inputTensors {
            uniformRows.scan(tensor, pointers[tensor])
        }
    }

    @inline(__always)
    private func run(_ operation: any Operation) {
        let pointers = UnsafePointer(self.pointers)
        if let uniformRows {
            operation.run(pointers, workers: workers, uniformRows: uniformRows)
        } else {
            operation.run(pointers, workers: workers)
        }
    }

    /// Runs like ``invoke()`` and returns the seconds spent per kind of operation, slowest first,
    /// for benchmarks to show where the time goes.
    package func invokeProfiled() -> [(operation: String, seconds: Double)] {
        var totals: [String: Double] = [:]
        startInvocation()
        for operation in model.plan.operations {
            let start = ContinuousClock.now
            run(operation)
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            totals[String(describing: type(of: operation)), default: 0] += seconds
        }
        return totals.sorted { $0.value > $1.value }.map { ($0.key, $0.value) }
    }

    /// Runs like ``invoke()`` and returns each operation's time in plan order, with its summary and
    /// multiply-accumulates, so a benchmark can show which layers fall short of the kernels' peak.
    package func invokeProfiledPerOperation() -> [(summary: String, multiplyAccumulates: Int, seconds: Double)] {
        startInvocation()
        return model.plan.operations.map { operation in
            let start = ContinuousClock.now
            run(operation)
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            return (operation.summary, operation.multiplyAccumulates, seconds)
        }
    }

    /// Multiply-accumulates the last invocation's convolutions left out, for runs of pixels known to
    /// come out equal (``UniformRows``): their pixels' share of ``Operation/multiplyAccumulates``.
    package var uniformColumnsSkippedMultiplyAccumulates: Int {
        guard let uniformRows else { return 0 }
        var skipped = 0
        for case let operation as ConvolutionOperation in model.plan.operations {
            guard let rows = uniformRows.rows(operation.output) else { continue }
            let s = operation.kernel.shape
            for y in 0 ..< s.outputHeight where rows[2 * y + 1] - rows[2 * y] >= 2 {
                skipped += Int(rows[2 * y + 1] - rows[2 * y] - 1) * s.kernelHeight * s.kernelWidth * s.inputChannels * s.outputChannels
            }
        }
        return skipped
    }

    /// Lets `body` read output `index` (row-major, `model.outputs[index].shape`) without copying.
    public func withOutput<R>(_ index: Int, _ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        precondition(model.outputs.indices.contains(index), "output \(index) out of range: the model has \(model.outputs.count)")
        return try body(UnsafeBufferPointer(start: pointers[model.outputTensors[index]], count: model.outputs[index].elementCount))
    }

    /// Lets `body` read the output called `name`.
    /// - Throws: ``ModelError/unknownTensor(name:)`` when there is none, or what `body` throws.
    public func withOutput<R>(named name: String, _ body: (UnsafeBufferPointer<Float>) throws -> R) throws -> R {
        guard let index = model.outputIndex(named: name) else { throw ModelError.unknownTensor(name: name) }
        return try withOutput(index, body)
    }

    /// A copy of output `index`.
    public func output(_ index: Int) -> [Float] {
        withOutput(index) { Array($0) }
    }

    /// A copy of the output called `name`.
    public func output(named name: String) throws(ModelError) -> [Float] {
        guard let index = model.outputIndex(named: name) else { throw .unknownTensor(name: name) }
        return output(index)
    }
}
