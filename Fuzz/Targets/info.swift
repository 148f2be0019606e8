// libFuzzer target: ImageFileInfo alone (headers only, every format).
import Foundation
import VisageImage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInfo(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    _ = try? ImageFileInfo.read(data: Data(bytes: bytes, count: count))
    return 0
}
