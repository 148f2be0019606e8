import CJPEG
import VisageGeometry

/// JPEG through libjpeg's own API (libjpeg-turbo underneath), behind the small C target `CJPEG` that
/// owns the error manager: `setjmp`/`longjmp` stay inside C and never cross a Swift frame.
///
/// Decoding uses the accurate integer IDCT and smooth upsampling (libjpeg's defaults, as Pillow and djpeg).
/// CMYK and YCCK files decode to CMYK and are converted to RGB here, as Pillow converts them.
/// Errors are classified by libjpeg's message codes, never by their text.
package enum JPEGCodec {
    /// Progressive files with more scans than this are refused: each scan is a pass over every coefficient.
    static let maximumScans: Int32 = 500

    package static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageFileInfo {
        let markers = try JPEGMarkers(bytes)
        let colorModel: String
        let pixelFormat: PixelFormat
        switch markers.components {
        case 1: (colorModel, pixelFormat) = ("gray", .gray8)
        case 3: (colorModel, pixelFormat) = (markers.adobeTransform == 0 ? "RGB" : "YCbCr", .rgb8)
        case 4: (colorModel, pixelFormat) = (markers.adobeTransform == 2 ? "YCCK" : "CMYK", .rgb8)
        default: throw .corrupt(.jpeg, reason: "\(markers.components) components; 1, 3 or 4 are supported")
        }
        return ImageFileInfo(
            format: .jpeg, width: markers.width, height: markers.height, orientation: markers.orientation,
            pixelFormat: pixelFormat, bitDepth: markers.precision, colorModel: colorModel,
            isProgressive: markers.isProgressive)
    }

    /// `dcOnly`: shrink on load at 1/8 reads only the blocks' DC terms (``JPEGDCDecoder``) when it can;
    /// false always decodes with libjpeg (the reference its tests compare against).
    package static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions, dcOnly: Bool = true) throws(ImageError) -> Image {
        let markers = try JPEGMarkers(bytes)
        try checkPixelLimit(width: markers.width, height: markers.height, limit: options.pixelLimit)
        let decoder = try JPEGDecoder(bytes, pixelLimit: options.pixelLimit)
        var scale = 8
        if let maximum = options.maximumDimension {
            scale = scaleNumerator(width: decoder.width, height: decoder.height, atLeast: maximum)
        } else if let minimum = options.minimumDimension {
            scale = halvingScaleNumerator(width: decoder.width, height: decoder.height, atLeast: minimum)
        }
        // libjpeg's start checks the tables and sampling factors the DC decoder then relies on.
        let output = try decoder.start(scaleNumerator: scale)
        if dcOnly, scale == 1, options.maximumDimension == nil, decoder.isGray || decoder.isYCbCr, markers.isSequentialHuffman,
           let image = try JPEGDCDecoder.decodeEighth(bytes, threads: options.threads, orientation: markers.orientation),
           (image.width, image.height) == output {
            return image
        }
        let pixelFormat: PixelFormat = decoder.isGray ? .gray8 : .rgb8
        return try Image(
            uninitializedWidth: output.width, height: output.height, pixelFormat: pixelFormat, orientation: markers.orientation,
            storageOffset: cachedStorageOffset(decoder, bytes: output.width * pixelFormat.bytesPerPixel * output.height)
        ) { out throws(ImageError) in
            if decoder.isCMYK {
                let pitch = output.width * 4
                let cmyk = UnsafeMutableRawBufferPointer.allocate(byteCount: pitch * output.height, alignment: 16)
                defer { cmyk.deallocate() }
                try decoder.readRows(into: cmyk.baseAddress!, bytesPerRow: pitch, count: output.height)
                convertCMYK(UnsafeRawBufferPointer(cmyk), to: out, inverted: markers.hasAdobeMarker)
            } else {
                let stride = output.width * pixelFormat.bytesPerPixel
                if options.threads > 1, !decoder.rowsNeedContext,
                   let splits = JPEGBands.splits(bytes, markers: markers, count: options.threads) {
                    if JPEGBands.decode(
                        bytes, markers: markers, splits: splits, first: decoder, scaleNumerator: scale, size: output,
                        into: out.baseAddress!, bytesPerRow: stride, pixelLimit: options.pixelLimit) {
                        return
                    }
                    // A band failed or warned: one decoder from the start says what is wrong, as without bands.
                    let serial = try JPEGDecoder(bytes, pixelLimit: options.pixelLimit)
                    _ = try serial.start(scaleNumerator: scale)
                    try serial.readRows(into: out.baseAddress!, bytesPerRow: stride, count: output.height)
                    return
                }
                try decoder.readRows(into: out.baseAddress!, bytesPerRow: stride, count: output.height)
            }
        }
    }

    /// The full-scale stored pixels of `columns` × `rows` (``ImageWindow/clamped(_:to:)``): libjpeg skips the rows
    /// above (entropy-decoded, never transformed), stops after the last, and transforms only the blocks of
    /// the columns, widened to whole iMCUs (libjpeg's `jpeg_crop_scanline`), so the window can be wider.
    package static func decodeWindow(
        _ bytes: UnsafeRawBufferPointer, columns: Range<Int>, rows: Range<Int>, pixelLimit: Int
    ) throws(ImageError) -> ImageWindow {
        let markers = try JPEGMarkers(bytes)
        try checkPixelLimit(width: markers.width, height: markers.height, limit: pixelLimit)
        let decoder = try JPEGDecoder(bytes, pixelLimit: pixelLimit)
        let full = try decoder.start()
        let wantedColumns = ImageWindow.clamped(columns, to: full.width), wantedRows = ImageWindow.clamped(rows, to: full.height)
        // A full-width window needs no crop (and libjpeg's crop is cheaper skipped).
        let decodedColumns = wantedColumns == 0..<full.width ? wantedColumns : try decoder.cropColumns(wantedColumns)
        try decoder.skipRows(wantedRows.lowerBound)
        guard decoder.nextRow == wantedRows.lowerBound else {
            throw .truncated(.jpeg, reason: "only \(decoder.nextRow) of the \(wantedRows.lowerBound) rows above the window could be skipped")
        }
        let (width, height) = (decodedColumns.count, wantedRows.count)
        let pixelFormat: PixelFormat = decoder.isGray ? .gray8 : .rgb8
        let pixels = try Image(
            uninitializedWidth: width, height: height, pixelFormat: pixelFormat, orientation: markers.orientation,
            storageOffset: cachedStorageOffset(decoder, bytes: width * pixelFormat.bytesPerPixel * height)
        ) { out throws(ImageError) in
            if decoder.isCMYK {
                let cmyk = UnsafeMutableRawBufferPointer.allocate(byteCount: width * 4 * height, alignment: 16)
                defer { cmyk.deallocate() }
                try decoder.readRows(into: cmyk.baseAddress!, bytesPerRow: width * 4, count: height)
                convertCMYK(UnsafeRawBufferPointer(cmyk), to: out, inverted: markers.hasAdobeMarker)
            } else {
                try decoder.readRows(into: out.baseAddress!, bytesPerRow: width * pixelFormat.bytesPerPixel, count: height)
            }
        }
        return ImageWindow(
            pixels: pixels, x: decodedColumns.lowerBound, y: wantedRows.lowerBound, pictureWidth: full.width, pictureHeight: full.height)
    }

    /// Where an RGB picture of `bytes` that libjpeg decodes should start: 8 bytes past a 64-byte boundary
    /// when it is small enough to stay in the cache (`vjpeg_cached_picture_limit`), so that no row starts
    /// 16-byte aligned and libjpeg-turbo's colour conversion writes the rows in place with ordinary
    /// stores, rather than into CJPEG's strip to be copied (0.4 % of a 640×480 batch's CPU, perf); larger
    /// pictures keep the aligned start and the streaming stores. Gray and CMYK are not converted there.
    private static func cachedStorageOffset(_ decoder: JPEGDecoder, bytes: Int) -> Int {
        !decoder.isGray && !decoder.isCMYK && bytes <= Int(vjpeg_cached_picture_limit()) ? 8 : 0
    }

    /// The smallest libjpeg scaled-IDCT numerator (n/8, n ≤ 8) whose longer side still reaches `minimum`.
    static func scaleNumerator(width: Int, height: Int, atLeast minimum: Int) -> Int {
        smallestNumerator(among: stride(from: 7, through: 1, by: -1), width: width, height: height, atLeast: minimum)
    }

    /// The smallest of libjpeg's halving scales (8, 4, 2, 1 eighths), whose reduced IDCTs are the fast
    /// ones, whose longer side still reaches `minimum`.
    package static func halvingScaleNumerator(width: Int, height: Int, atLeast minimum: Int) -> Int {
        smallestNumerator(among: [4, 2, 1], width: width, height: height, atLeast: minimum)
    }

    /// The smallest of `numerators` (eighths, largest first) whose scaled longer side still reaches
    /// `minimum`; 8 when none does. The scaled size shrinks with the numerator, so the first miss ends it.
    private static func smallestNumerator(
        among numerators: some Sequence<Int>, width: Int, height: Int, atLeast minimum: Int
    ) -> Int {
        var best = 8
        for numerator in numerators {
            let scaled = scaledSize(width: width, height: height, numerator: numerator)
            guard max(scaled.width, scaled.height) >= minimum else { break }
            best = numerator
        }
        return best
    }

    /// The output size libjpeg computes for a scale of `numerator`/8 (rounded up, as `jdiv_round_up`).
    package static func scaledSize(width: Int, height: Int, numerator: Int) -> (width: Int, height: Int) {
        ((width * numerator + 7) / 8, (height * numerator + 7) / 8)
    }

    /// CMYK to RGB as Pillow converts it: `R = (255 − K) − (C × (255 − K)) / 255`, rounded the same way.
    /// Adobe applications store the four channels inverted, which its APP14 marker signals.
    private static func convertCMYK(_ cmyk: UnsafeRawBufferPointer, to rgb: UnsafeMutableRawBufferPointer, inverted: Bool) {
        let pixels = rgb.count / 3
        let flip: UInt8 = inverted ? 255 : 0
        for index in 0..<pixels {
            let k = Int(cmyk[4 * index + 3] ^ flip)
            let nk = 255 - k
            for channel in 0..<3 {
                let product = Int(cmyk[4 * index + channel] ^ flip) * nk + 128
                rgb[3 * index + channel] = UInt8(clamping: nk - (((product >> 8) + product) >> 8))
            }
        }
    }

    /// Compresses with 4:2:0 chroma subsampling (4:4:4 above quality 90; grayscale stays one channel).
    /// With `restartInterval` (MCUs) or `restartRows` (rows of MCUs), restart markers that far apart.
    package static func encode(_ image: Image, quality: Int, restartInterval: Int = 0, restartRows: Int = 0) throws(ImageError) -> [UInt8] {
        guard (1...100).contains(quality) else {
            throw .invalidParameter(name: "JPEG quality", value: "\(quality)", rule: "must be in 1…100")
        }
        guard let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height), width <= 65_500, height <= 65_500 else {
            throw .encodingFailed(.jpeg, reason: "\(image.width)×\(image.height) exceeds JPEG's 65 500-pixel sides")
        }
        let (channels, bgr): (Int32, Int32) = switch image.pixelFormat {
        case .rgb8: (3, 0)
        case .rgba8: (4, 0)
        case .bgra8: (4, 1)
        case .gray8: (1, 0)
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var status = vjpeg_status()
        let result = withExtendedLifetime(image.storage) {
            vjpeg_encode(
                image.storage.base.assumingMemoryBound(to: UInt8.self), width, height, image.bytesPerRow, channels, bgr,
                Int32(quality), quality > 90 ? 0 : 1, Int32(clamping: restartInterval), Int32(clamping: restartRows), &output, &size, &status)
        }
        defer { vjpeg_free(output) }
        guard result == 0, let output else {
            throw .encodingFailed(.jpeg, reason: message(of: status))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    static func message(of status: vjpeg_status) -> String {
        withUnsafeBytes(of: status.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
