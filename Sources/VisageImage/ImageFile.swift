import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole regular file, refusing directories, devices and FIFOs before reading a byte, and
/// non-images after reading only their signature.
///
/// - Parameter maximumBytes: larger files are refused unread; a file any decodable image fits in is smaller.
package func readImageFile(_ url: URL, maximumBytes: Int = imageFileByteLimit(pixelLimit: ImageDecodingOptions.defaultPixelLimit)) throws(ImageError) -> Data {
    let path = url.path
    guard url.isFileURL else { throw .unreadable(path: url.absoluteString, reason: "not a file URL") }
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it changes nothing for regular files.
    let descriptor = open(path, O_RDONLY | O_NONBLOCK)
    guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
    guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notAFile(path: path) }
    let size = Int(status.st_size)
    guard size > 0 else { throw .empty }
    var data = Data(count: min(size, 64))
    guard try readFully(descriptor, into: &data, path: path) == data.count else {
        throw .unreadable(path: path, reason: "the file shrank while being read")
    }
    _ = try withBytes(of: data) { bytes throws(ImageError) in try ImageFileFormat(detecting: bytes) }
    guard size <= maximumBytes else {
        throw .unreadable(path: path, reason: "\(size) bytes exceed the \(maximumBytes)-byte limit for image files")
    }
    if size > data.count {
        var rest = Data(count: size - data.count)
        let count = try readFully(descriptor, into: &rest, path: path)
        data.append(rest.prefix(count))
    }
    return data
}

/// The largest file worth reading for images within `pixelLimit`: 8 bytes a pixel (16-bit RGBA, stored
/// uncompressed) plus 64 MB of metadata.
package func imageFileByteLimit(pixelLimit: Int) -> Int {
    let (pixelBytes, overflow) = pixelLimit.multipliedReportingOverflow(by: 8)
    let (total, sumOverflow) = pixelBytes.addingReportingOverflow(64 << 20)
    return overflow || sumOverflow ? Int.max : total
}

/// Reads until `buffer` is full or the file ends; returns the byte count read.
private func readFully(_ descriptor: Int32, into buffer: inout Data, path: String) throws(ImageError) -> Int {
    let wanted = buffer.count
    let result = buffer.withUnsafeMutableBytes { bytes -> Int in
        var done = 0
        while done < wanted {
            let n = read(descriptor, bytes.baseAddress! + done, wanted - done)
            if n < 0, errno == EINTR { continue }
            if n < 0 { return -1 }
            if n == 0 { break }
            done += n
        }
        return done
    }
    guard result >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
    return result
}
