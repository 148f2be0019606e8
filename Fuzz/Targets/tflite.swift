// libFuzzer target: TFLite loading, planning, and one inference on a fixed input.
import Foundation
import VisageNN

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTFLite(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard let model = try? Model(data: Data(bytes: bytes, count: count)),
          let interpreter = try? Interpreter(model: model)
    else { return 0 }
    // withInput's index is a precondition (a caller's bug, like an array index): feed each input there is.
    for input in model.inputs.indices { interpreter.withInput(input) { $0.update(repeating: 0.25) } }
    _ = try? interpreter.invoke()
    return 0
}
