// libFuzzer target: raw RGB24 framing. The first two bytes choose the frame size (1…64 each side);
// the rest is the stream, read up to 8 frames.
import Foundation
import VisageVideo

private let path = "/dev/shm/visage-fuzz-raw-\(getpid()).rgb"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRaw(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count >= 2 else { return 0 }
    let (width, height) = (Int(bytes[0] & 63) + 1, Int(bytes[1] & 63) + 1)
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: bytes + 2, count: count - 2)) else { return 0 }
    defer { unlink(path) }
    guard let source = try? RawRGBFrameSource(path: path, width: width, height: height, frameRate: 30) else { return 0 }
    for _ in 0..<8 {
        guard let frame = try? source.nextFrame() else { break }
        _ = frame.image.width
    }
    return 0
}
