// libFuzzer target: YUV4MPEG2 framing, from a file in memory (/dev/shm), up to 8 frames.
import Foundation
import VisageVideo

private let path = "/dev/shm/visage-fuzz-y4m-\(getpid()).y4m"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzY4M(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: bytes, count: count)) else { return 0 }
    defer { unlink(path) }
    guard let source = try? Y4MFrameSource(path: path) else { return 0 }
    for _ in 0..<8 {
        guard let frame = try? source.nextFrame() else { break }
        _ = frame.image.width
    }
    return 0
}
