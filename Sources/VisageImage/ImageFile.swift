import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole regular file, refusing directories, devices and FIFOs before reading a byte.
package func readImageFile(_ url: URL) throws(ImageError) -> Data {
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
    var data = Data(count: size)
    let readCount = data.withUnsafeMutableBytes { buffer -> Int in
        var done = 0
        while done < size {
            let n = read(descriptor, buffer.baseAddress! + done, size - done)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return n < 0 ? -1 : done }
            done += n
        }
        return done
    }
    guard readCount >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
    if readCount < size { data.removeSubrange(readCount...) }
    return data
}
