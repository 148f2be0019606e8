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
    // The signature first (all a file too large for an image is read), then the rest into the same
    // uninitialised buffer, which the Data owns once it is filled: no zero-filling, no second copy.
    let prefix = min(size, 64)
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: size <= maximumBytes ? size : prefix, alignment: 16)
    var filled = false
    defer { if !filled { buffer.deallocate() } }
    guard try readFully(descriptor, into: UnsafeMutableRawBufferPointer(start: buffer, count: prefix), path: path) == prefix else {
        throw .unreadable(path: path, reason: "the file shrank while being read")
    }
    _ = try ImageFileFormat(detecting: UnsafeRawBufferPointer(start: buffer, count: prefix))
    guard size <= maximumBytes else {
        throw .unreadable(path: path, reason: "\(size) bytes exceed the \(maximumBytes)-byte limit for image files")
    }
    let rest = try readFully(descriptor, into: UnsafeMutableRawBufferPointer(start: buffer + prefix, count: size - prefix), path: path)
    filled = true
    return Data(bytesNoCopy: buffer, count: prefix + rest, deallocator: .custom { pointer, _ in pointer.deallocate() })
}

/// The largest file worth reading for images within `pixelLimit`: 8 bytes a pixel (16-bit RGBA, stored
/// uncompressed) plus 64 MB of metadata.
package func imageFileByteLimit(pixelLimit: Int) -> Int {
    let (pixelBytes, overflow) = pixelLimit.multipliedReportingOverflow(by: 8)
    let (total, sumOverflow) = pixelBytes.addingReportingOverflow(64 << 20)
    return overflow || sumOverflow ? Int.max : total
}

/// Reads until `bytes` is full or the file ends; returns the byte count read.
private func readFully(_ descriptor: Int32, into bytes: UnsafeMutableRawBufferPointer, path: String) throws(ImageError) -> Int {
    var done = 0
    while done < bytes.count {
        let n = read(descriptor, bytes.baseAddress! + done, bytes.count - done)
        if n < 0, errno == EINTR { continue }
        if n < 0 { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        if n == 0 { break }
        done += n
    }
    return done
}
