import Foundation
import VisageGeometry

/// A two-dimensional pixel buffer with an explicit format, row stride and EXIF orientation.
///
/// `Image` has value semantics: copies share memory until one of them is mutated (copy-on-write).
/// Rows are `bytesPerRow` bytes apart, which may exceed `width × bytesPerPixel` (camera frames pad rows).
///
/// ```swift
/// let image = try Image(contentsOf: URL(fileURLWithPath: "group.jpg"))   // upright, per EXIF
/// let rgba = image.converted(to: .rgba8)
/// ```
public struct Image: Sendable {
    /// Width of the stored pixels.
    public private(set) var width: Int
    /// Height of the stored pixels.
    public private(set) var height: Int
    public private(set) var pixelFormat: PixelFormat
    /// Distance in bytes between the starts of consecutive rows.
    public private(set) var bytesPerRow: Int
    /// How the stored pixels relate to the upright picture; `.up` once orientation was applied.
    public internal(set) var orientation: ImageOrientation
    package private(set) var storage: ImageStorage

    /// Copies `pixels`, `bytesPerRow` apart (tightly packed when nil), into a new image.
    ///
    /// - Throws: ``ImageError/invalidParameter(name:value:rule:)`` when a size is not positive, the stride is
    ///   shorter than a row, or `pixels.count` is not `bytesPerRow × height`.
    public init(
        width: Int, height: Int, pixelFormat: PixelFormat, pixels: [UInt8], bytesPerRow: Int? = nil,
        orientation: ImageOrientation = .up
    ) throws(ImageError) {
        let stride = bytesPerRow ?? width &* pixelFormat.bytesPerPixel
        let count = try Self.validatedByteCount(width: width, height: height, pixelFormat: pixelFormat, bytesPerRow: stride)
        guard pixels.count == count else {
            throw .invalidParameter(
                name: "pixel count", value: "\(pixels.count)", rule: "must be bytesPerRow × height = \(count)")
        }
        let storage = ImageStorage(byteCount: count)
        pixels.withUnsafeBytes { storage.base.copyMemory(from: $0.baseAddress!, byteCount: count) }
        self.init(width: width, height: height, pixelFormat: pixelFormat, bytesPerRow: stride, orientation: orientation, storage: storage)
    }

    /// Wraps caller memory without copying it: the zero-copy path for camera frames.
    ///
    /// The memory must stay valid and unchanged until `deallocator` runs, which happens once, when the
    /// last copy of this image (and of any image sharing its storage) is gone, on the thread that drops it. Mutating the image first
    /// copies the pixels into memory Visage owns, so the caller's buffer is never written.
    ///
    /// ```swift
    /// CVPixelBufferLockBaseAddress(buffer, .readOnly)
    /// let frame = try Image(bytesNoCopy: UnsafeRawBufferPointer(start: base, count: stride * height),
    ///                       width: w, height: h, pixelFormat: .bgra8, bytesPerRow: stride) {
    ///     CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
    /// }
    /// ```
    /// - Throws: ``ImageError/invalidParameter(name:value:rule:)`` when the buffer is shorter than
    ///   `bytesPerRow × height` or a size is invalid; `deallocator` is then not called.
    public init(
        bytesNoCopy bytes: UnsafeRawBufferPointer, width: Int, height: Int, pixelFormat: PixelFormat,
        bytesPerRow: Int, orientation: ImageOrientation = .up,
        deallocator: @escaping @Sendable () -> Void
    ) throws(ImageError) {
        let count = try Self.validatedByteCount(width: width, height: height, pixelFormat: pixelFormat, bytesPerRow: bytesPerRow)
        guard let base = bytes.baseAddress, bytes.count >= count else {
            throw .invalidParameter(
                name: "buffer length", value: "\(bytes.count)", rule: "must be at least bytesPerRow × height = \(count)")
        }
        let storage = ImageStorage(borrowing: base, count: count, deallocator: deallocator)
        self.init(width: width, height: height, pixelFormat: pixelFormat, bytesPerRow: bytesPerRow, orientation: orientation, storage: storage)
    }

    package init(
        width: Int, height: Int, pixelFormat: PixelFormat, bytesPerRow: Int, orientation: ImageOrientation,
        storage: ImageStorage
    ) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.bytesPerRow = bytesPerRow
        self.orientation = orientation
        self.storage = storage
    }

    /// A tightly packed image whose pixels `fill` writes; the caller has validated the size. The pixels
    /// start `storageOffset` bytes past a 64-byte boundary (``ImageStorage/init(byteCount:offset:)``).
    package init(
        uninitializedWidth width: Int, height: Int, pixelFormat: PixelFormat, orientation: ImageOrientation = .up,
        storageOffset: Int = 0, fill: (UnsafeMutableRawBufferPointer) throws(ImageError) -> Void
    ) throws(ImageError) {
        let stride = width * pixelFormat.bytesPerPixel
        let storage = ImageStorage(byteCount: stride * height, offset: storageOffset)
        try fill(UnsafeMutableRawBufferPointer(start: storage.base, count: storage.count))
        self.init(width: width, height: height, pixelFormat: pixelFormat, bytesPerRow: stride, orientation: orientation, storage: storage)
    }

    /// `bytesPerRow × height`, after checking sizes and stride and that the product does not overflow.
    package static func validatedByteCount(
        width: Int, height: Int, pixelFormat: PixelFormat, bytesPerRow: Int
    ) throws(ImageError) -> Int {
        guard width > 0 else { throw .invalidParameter(name: "width", value: "\(width)", rule: "must be positive") }
        guard height > 0 else { throw .invalidParameter(name: "height", value: "\(height)", rule: "must be positive") }
        let (rowBytes, rowOverflow) = width.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        guard !rowOverflow, bytesPerRow >= rowBytes else {
            throw .invalidParameter(
                name: "bytesPerRow", value: "\(bytesPerRow)",
                rule: "must be at least width × \(pixelFormat.bytesPerPixel) bytes for \(pixelFormat)")
        }
        let (count, overflow) = bytesPerRow.multipliedReportingOverflow(by: height)
        guard !overflow else {
            throw .invalidParameter(name: "size", value: "\(bytesPerRow)×\(height)", rule: "bytesPerRow × height overflows")
        }
        return count
    }

    /// The size of the upright picture: `width × height`, exchanged for orientations that turn the picture
    /// by 90°. Results of Visage are in this frame.
    public var size: CGSize {
        let upright = orientation.uprightSize(rawWidth: width, rawHeight: height)
        return CGSize(width: upright.width, height: upright.height)
    }

    /// Calls `body` with the stored pixels: `bytesPerRow × height` bytes, rows top to bottom.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) {
            try body(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
        }
    }

    /// Calls `body` with writable pixels, first copying them if they are shared or borrowed.
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        if !isKnownUniquelyReferenced(&storage) || !storage.isOwned {
            let copy = ImageStorage(byteCount: storage.count)
            copy.base.copyMemory(from: storage.base, byteCount: storage.count)
            storage = copy
        }
        return try withExtendedLifetime(storage) {
            try body(UnsafeMutableRawBufferPointer(start: storage.base, count: storage.count))
        }
    }

    /// The stored bytes of one pixel. Checks bounds; for tests and tools, not for loops.
    public func pixel(x: Int, y: Int) -> [UInt8] {
        precondition((0..<width).contains(x) && (0..<height).contains(y), "pixel (\(x), \(y)) outside \(width)×\(height)")
        return withUnsafeBytes { Array($0[(y * bytesPerRow + x * pixelFormat.bytesPerPixel)...].prefix(pixelFormat.bytesPerPixel)) }
    }

    /// The pixels tightly packed, rows top to bottom: `width × height × bytesPerPixel` bytes.
    public var packedPixels: [UInt8] {
        let rowBytes = width * pixelFormat.bytesPerPixel
        return withUnsafeBytes { bytes in
            [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, initialized in
                for row in 0..<height {
                    UnsafeMutableRawPointer(out.baseAddress! + row * rowBytes)
                        .copyMemory(from: bytes.baseAddress! + row * bytesPerRow, byteCount: rowBytes)
                }
                initialized = rowBytes * height
            }
        }
    }
}
