// libFuzzer target: the EXIF reader alone. The input is the TIFF structure of an EXIF block, placed
// in a JPEG APP1 segment and in a PNG eXIf chunk; the header probe reads the orientation from each.
import Foundation
import VisageImage

private let jpegTail: [UInt8] = [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9]
private let pngHeader: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A,
                                  0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10,
                                  0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x91, 0x68, 0x36]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEXIF(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let tiff = Array(UnsafeBufferPointer(start: bytes, count: min(count, 65_000)))
    let app1 = [UInt8]("Exif\0\0".utf8) + tiff
    let length = app1.count + 2
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1 + jpegTail
    _ = try? ImageFileInfo.read(data: Data(jpeg))
    let size = tiff.count
    let chunk: [UInt8] = [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
        + Array("eXIf".utf8) + tiff + [0, 0, 0, 0]
    _ = try? ImageFileInfo.read(data: Data(pngHeader + chunk))
    return 0
}
