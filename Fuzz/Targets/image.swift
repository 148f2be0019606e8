// libFuzzer target: any image format through Image(data:) and the header probe.
import Foundation
import VisageImage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    _ = try? ImageFileInfo.read(data: data)
    // A 4-megapixel limit keeps each run small; the limit itself is tested by the corpus.
    _ = try? Image(data: data, options: .init(pixelLimit: 4_000_000))
    return 0
}
