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
    guard url.isFileURL else { throw .unreadable(path: url.absoluteString, reason: "not a file URL") }
    return try readImageFile(opening: url.path, maximumBytes: maximumBytes)
}

/// ``readImageFile(_:maximumBytes:)`` of `URL(fileURLWithPath: path, isDirectory: false)`, without making
/// the URL when its `path` would be `path` itself: an absolute path that does not end in "/" and holds no
/// NUL (Foundation makes a relative path absolute, expands "~" and drops a trailing "/"; it writes NUL as
/// "%00"). Making the URL and reading its path back cost about 0.5 % of a 640×480 batch's CPU (perf).
package func readImageFile(
    atPath path: String, maximumBytes: Int = imageFileByteLimit(pixelLimit: ImageDecodingOptions.defaultPixelLimit)
) throws(ImageError) -> Data {
    if isPlainAbsolutePath(path) { return try readImageFile(opening: path, maximumBytes: maximumBytes) }
    return try readImageFile(URL(fileURLWithPath: path, isDirectory: false), maximumBytes: maximumBytes)
}

/// An absolute path that `URL(fileURLWithPath:isDirectory:)` keeps as it is (``readImageFile(atPath:maximumBytes:)``).
package func isPlainAbsolutePath(_ path: String) -> Bool {
    let utf8 = path.utf8
    return utf8.first == UInt8(ascii: "/") && utf8.last != UInt8(ascii: "/") && !utf8.contains(0)
}

/// The file at `path` (errors name it as given).
private func readImageFile(opening path: String, maximumBytes: Int) throws(ImageError) -> Data {
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
