import CJPEG

/// One libjpeg decompression over borrowed bytes: header, scale, then rows — all of them, or only a
/// band of rows (`skipRows`) and a range of columns (`cropColumns`), which libjpeg decodes without
/// producing the rest.
///
/// The bytes must outlive the decoder. Every failure is a typed ``ImageError``; data that ends early is
/// `.truncated`, recognised from libjpeg's message codes.
package final class JPEGDecoder {
    private let handle: OpaquePointer
    package let width: Int
    package let height: Int
    package let isGray: Bool
    package let isCMYK: Bool
    /// Stored as YCbCr (libjpeg's reading of the JFIF and Adobe markers and the component ids).
    package let isYCbCr: Bool

    /// Reads the header. `pixelLimit` also caps libjpeg's working memory (progressive files keep every
    /// coefficient: about 2 bytes a sample), so a small file can never claim gigabytes.
    package convenience init(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int) throws(ImageError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .empty }
        let memory = Self.memoryLimit(pixelLimit)
        try self.init(vjpeg_create(base.assumingMemoryBound(to: UInt8.self), bytes.count, memory, JPEGCodec.maximumScans), pixelLimit: pixelLimit)
    }

    /// A decoder over `prefix` then `body`, read as one file (``JPEGBands``: a band's headers, then the
    /// file's entropy-coded data from a restart marker on). Both must outlive the decoder. `endsWithEOI`: an
    /// end-of-image marker follows the body (a band that stops at the next band's marker).
    package convenience init(
        prefix: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer, endsWithEOI: Bool = false, pixelLimit: Int
    ) throws(ImageError) {
        guard let head = prefix.baseAddress, let base = body.baseAddress, !prefix.isEmpty, !body.isEmpty else { throw .empty }
        try self.init(
            vjpeg_create_pieces(
                head.assumingMemoryBound(to: UInt8.self), prefix.count, base.assumingMemoryBound(to: UInt8.self), body.count,
                endsWithEOI ? 1 : 0, Self.memoryLimit(pixelLimit), JPEGCodec.maximumScans),
            pixelLimit: pixelLimit)
    }

    private static func memoryLimit(_ pixelLimit: Int) -> Int {
        let memory = pixelLimit.multipliedReportingOverflow(by: 8)
        return memory.overflow ? Int.max : memory.partialValue
    }

    private init(_ created: OpaquePointer?, pixelLimit: Int) throws(ImageError) {
        guard let handle = created else { throw .corrupt(.jpeg, reason: "cannot create a libjpeg decompressor") }
        self.handle = handle
        var header = vjpeg_header()
        if vjpeg_read_header(handle, &header) != 0 {
            let error = JPEGDecoder.failure(handle)
            vjpeg_destroy(handle)
            throw error
        }
        (width, height) = (Int(header.width), Int(header.height))
        isGray = header.color == VJPEG_COLOR_GRAY
        isCMYK = header.color == VJPEG_COLOR_CMYK || header.color == VJPEG_COLOR_YCCK
        isYCbCr = header.color == VJPEG_COLOR_YCBCR
        do throws(ImageError) {
            // The header libjpeg read is the one it will decode; check its size too.
            try checkPixelLimit(width: width, height: height, limit: pixelLimit)
        } catch {
            vjpeg_destroy(handle)
            throw error
        }
    }

    deinit { vjpeg_destroy(handle) }

    /// Bytes per output pixel: 1 gray, 3 RGB, 4 CMYK (converted to RGB by the caller).
    package var outputBytesPerPixel: Int { isCMYK ? 4 : isGray ? 1 : 3 }

    /// Starts decompression at `scaleNumerator`/8 of the stored size; returns the output size.
    package func start(scaleNumerator: Int = 8) throws(ImageError) -> (width: Int, height: Int) {
        guard (1...16).contains(scaleNumerator) else {
            throw .invalidParameter(name: "JPEG scale", value: "\(scaleNumerator)/8", rule: "must be 1/8…16/8")
        }
        let output = isCMYK ? VJPEG_OUT_CMYK : isGray ? VJPEG_OUT_GRAY : VJPEG_OUT_RGB
        var outWidth: UInt32 = 0, outHeight: UInt32 = 0
        try check(vjpeg_start(handle, Int32(scaleNumerator), output, &outWidth, &outHeight))
        return (Int(outWidth), Int(outHeight))
    }

    /// Narrows the rows that follow to at least `columns`; libjpeg widens to whole blocks and returns the
    /// columns it will actually produce.
    package func cropColumns(_ columns: Range<Int>) throws(ImageError) -> Range<Int> {
        guard let lower = UInt32(exactly: columns.lowerBound), let count = UInt32(exactly: columns.count), count > 0 else {
            throw .invalidParameter(name: "JPEG column range", value: "\(columns)", rule: "must be non-empty and non-negative")
        }
        var (x, width) = (lower, count)
        try check(vjpeg_crop_columns(handle, &x, &width))
        return Int(x)..<Int(x + width)
    }

    /// Skips `count` output rows without decoding them into pixels.
    package func skipRows(_ count: Int) throws(ImageError) {
        guard count > 0 else { return }
        var skipped: UInt32 = 0
        try check(vjpeg_skip_rows(handle, UInt32(clamping: count), &skipped))
    }

    /// The next output row to be produced.
    package var nextRow: Int { Int(vjpeg_output_row(handle)) }

    /// libjpeg's corrupt-data warnings so far (it carries on after them).
    package var warningCount: Int { Int(vjpeg_status_of(handle).pointee.warning_count) }

    /// After ``start(scaleNumerator:)``: whether an output row depends on the MCU rows above or below it
    /// (smooth vertical chroma upsampling), which bands of rows decoded apart would not reproduce.
    package var rowsNeedContext: Bool { vjpeg_rows_need_context(handle) != 0 }

    /// Decodes `count` rows into `destination`, `bytesPerRow` apart.
    package func readRows(into destination: UnsafeMutableRawPointer, bytesPerRow: Int, count: Int) throws(ImageError) {
        var decoded: UInt32 = 0
        let status = vjpeg_read_rows(handle, destination.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(clamping: count), &decoded)
        try check(status)
        // libjpeg pads data that stops early with gray and warns; a partial picture is not a decode.
        if vjpeg_status_of(handle).pointee.truncated != 0 {
            throw .truncated(.jpeg, reason: "the data ends before the image does (after \(decoded) of \(count) rows)")
        }
        guard Int(decoded) == count else {
            throw .truncated(.jpeg, reason: "only \(decoded) of \(count) rows could be decoded")
        }
    }

    private func check(_ status: Int32) throws(ImageError) {
        if status != 0 { throw JPEGDecoder.failure(handle) }
    }

    private static func failure(_ handle: OpaquePointer) -> ImageError {
        let status = vjpeg_status_of(handle).pointee
        let message = JPEGCodec.message(of: status)
        if status.truncated != 0 || status.message_code == vjpeg_code_truncated_input() {
            return .truncated(.jpeg, reason: message)
        }
        return .corrupt(.jpeg, reason: message)
    }
}
