import Foundation
import Testing
import VisageImage

/// `readImageFile` (the batch's and the service's file reader) returns exactly the file's bytes, for
/// files shorter than the 64-byte signature it reads first and for longer ones.
struct ImageFileTests {
    @Test("The bytes read are the file's", arguments: ["jpeg-444.jpg", "exif-6.png", "bad-truncated.jpg"])
    func bytesAreTheFiles(_ name: String) throws {
        let url = Fixtures.url(name)
        #expect(try readImageFile(url) == Data(contentsOf: url))
    }

    @Test func aFileShorterThanTheSignatureReadIsReadWhole() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("visage-tiny-\(UUID().uuidString).pgm")
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = Data("P5 1 1 255\n".utf8) + Data([200])
        try bytes.write(to: url)
        let read = try readImageFile(url)
        #expect(read == bytes)
        #expect(try Image(data: read).packedPixels == [200])
    }

    @Test func aFileExactlyAtTheLimitIsReadAndOneByteMoreIsRefused() throws {
        let url = Fixtures.url("jpeg-444.jpg")
        let size = try Data(contentsOf: url).count
        #expect(try readImageFile(url, maximumBytes: size).count == size)
        #expect(throws: ImageError.unreadable(path: url.path, reason: "\(size) bytes exceed the \(size - 1)-byte limit for image files")) {
            try readImageFile(url, maximumBytes: size - 1)
        }
    }
}
