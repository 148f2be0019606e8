import Foundation

/// A TFLite model loaded, checked and planned: immutable, so one instance serves every task.
///
/// Loading reads the file through a bounds-checked FlatBuffers reader, converts float16 weights
/// to float32 once, resolves every shape, packs convolution weights and plans the activation
/// arena. A malformed file throws ``ModelError`` instead of crashing.
///
/// ```swift
/// let model = try Model(data: Data(contentsOf: url))
/// let interpreter = try Interpreter(model: model)
/// interpreter.withInput { $0.update(repeating: 0) }
/// try interpreter.invoke()
/// let scores = interpreter.output(0)
/// ```
public final class Model: Sendable {
    /// The tensors callers fill, in the model's order.
    public let inputs: [TensorDescription]
    /// The tensors the model produces, in the model's order.
    public let outputs: [TensorDescription]
    let plan: ExecutionPlan
    /// Tensor ids of `inputs` and `outputs`.
    let inputTensors: [Int]
    let outputTensors: [Int]

    /// Loads a model from the bytes of a `.tflite` file.
    /// - Throws: ``ModelError`` when the file is malformed or uses an operator Visage does not run.
    public init(data: Data) throws(ModelError) {
        let graph = try TFLiteImporter.graph(from: [UInt8](data))
        plan = try Planner.plan(graph)
        inputTensors = graph.inputs
        outputTensors = graph.outputs
        inputs = graph.inputs.enumerated().map { TensorDescription(name: graph.tensors[$1].name, shape: graph.tensors[$1].shape, index: $0) }
        outputs = graph.outputs.enumerated().map { TensorDescription(name: graph.tensors[$1].name, shape: graph.tensors[$1].shape, index: $0) }
    }

    /// Position of the input called `name`, or nil.
    public func inputIndex(named name: String) -> Int? {
        inputs.firstIndex { $0.name == name }
    }

    /// Position of the output called `name`, or nil.
    public func outputIndex(named name: String) -> Int? {
        outputs.firstIndex { $0.name == name }
    }

    /// The threads an interpreter with ``InterpreterOptions/threads`` nil takes on a machine
    /// where this process may use `cores` cores (``AutomaticThreads``' size rule).
    package func automaticThreads(cores: Int) -> Int { AutomaticThreads.count(for: plan.operations, cores: cores) }

    /// Arena size, weights and peak live activations of the plan.
    package var memoryReport: MemoryReport { plan.memory }

    /// Number of operations after fusion, for benchmarks and tests.
    package var operationCount: Int { plan.operations.count }
}
