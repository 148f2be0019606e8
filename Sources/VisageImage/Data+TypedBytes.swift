import Foundation

/// `Data.withUnsafeBytes` with a typed-throwing body (the standard one rethrows `any Error`).
package func withBytes<R>(of data: Data, _ body: (UnsafeRawBufferPointer) throws(ImageError) -> R) throws(ImageError) -> R {
    let result: Result<R, ImageError> = data.withUnsafeBytes { bytes in
        Result { () throws(ImageError) in try body(bytes) }
    }
    return try result.get()
}
