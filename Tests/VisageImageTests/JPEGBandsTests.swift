import Foundation
import Testing
import VisageImage

/// A JPEG with restart markers decodes in bands of rows at once (``ImageDecodingOptions/threads``):
/// every row bit-identical to one decoder's, or no bands at all.
struct JPEGBandsTests {
    /// A picture that costs real entropy-coded bytes: a gradient under pseudo-random noise.
    static func picture(width: Int, height: Int, gray: Bool = false) throws -> Image {
        let channels = gray ? 1 : 3
        var state: UInt32 = 0x1234_5678
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = Int(state >> 26) - 32
                    pixels[(y * width + x) * channels + c] = UInt8(clamping: (x * 255 / width + y * 3 * (c + 1)) % 256 + noise)
                }
            }
        }
        return try Image(width: width, height: height, pixelFormat: gray ? .gray8 : .rgb8, pixels: pixels)
    }

    /// Quality 90 gives 4:2:0 chroma, 95 gives 4:4:4 (``JPEGCodec/encode(_:quality:restartInterval:restartRows:)``).
    static func encoded(
        width: Int = 1203, height: Int = 917, gray: Bool = false, quality: Int = 90, restartInterval: Int = 0, restartRows: Int = 1
    ) throws -> Data {
        Data(try JPEGCodec.encode(
            try picture(width: width, height: height, gray: gray), quality: quality, restartInterval: restartInterval,
            restartRows: restartInterval > 0 ? 0 : restartRows))
    }

    static func options(threads: Int, minimum: Int?) -> ImageDecodingOptions {
        var options = ImageDecodingOptions(applyOrientation: false)
        options.threads = threads
        options.minimumDimension = minimum
        return options
    }

    /// libjpeg's decode (not the 1/8 DC decoder, ``JPEGDCDecoder``), with or without bands.
    static func libjpeg(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        try data.withUnsafeBytes { bytes throws(ImageError) in try JPEGCodec.decode(bytes, options: options, dcOnly: false) }
    }

    /// The rows of `data` at `scale`/8 decoded by bands into one buffer, when the bands could be used.
    static func bandPixels(_ data: Data, scale: Int, bands: Int) throws -> [UInt8]? {
        try data.withUnsafeBytes { bytes -> [UInt8]? in
            let markers = try JPEGMarkers(bytes)
            guard let splits = JPEGBands.splits(bytes, markers: markers, count: bands) else { return nil }
            let decoder = try JPEGDecoder(bytes, pixelLimit: 1 << 26)
            let size = try decoder.start(scaleNumerator: scale)
            guard !decoder.rowsNeedContext else { return nil }
            let stride = size.width * decoder.outputBytesPerPixel
            var pixels = [UInt8](repeating: 0, count: stride * size.height)
            let used = pixels.withUnsafeMutableBytes { out in
                JPEGBands.decode(
                    bytes, markers: markers, splits: splits, first: decoder, scaleNumerator: scale, size: size,
                    into: out.baseAddress!, bytesPerRow: stride, pixelLimit: 1 << 26)
            }
            return used ? pixels : nil
        }
    }

    /// Halving scales as `minimumDimension` picks them for a 1203-pixel side: 8, 4, 2 and 1 eighths.
    static let scales: [(scale: Int, minimum: Int?)] = [(8, nil), (4, 600), (2, 300), (1, 150)]

    @Test(arguments: [
        (false, 90, 0, 1),   // 4:2:0, a marker every MCU row
        (false, 90, 7, 0),   // 4:2:0, every 7 MCUs: bands start only where a row and marker RST0 meet
        (false, 95, 0, 2),   // 4:4:4, every second row
        (true, 90, 0, 1),    // gray: one component, 8×8 MCUs
    ])
    func bandsGiveTheRowsOfOneDecoder(gray: Bool, quality: Int, restartInterval: Int, restartRows: Int) throws {
        let data = try Self.encoded(gray: gray, quality: quality, restartInterval: restartInterval, restartRows: restartRows)
        for (scale, minimum) in Self.scales {
            let serial = try Self.libjpeg(data, options: Self.options(threads: 1, minimum: minimum))
            #expect(serial.width == JPEGCodec.scaledSize(width: 1203, height: 917, numerator: scale).width)
            for threads in [2, 3] {
                let banded = try Self.libjpeg(data, options: Self.options(threads: threads, minimum: minimum))
                #expect(banded.packedPixels == serial.packedPixels, "scale \(scale)/8, \(threads) threads")
                // 4:2:0 at full scale upsamples its chroma smoothly across rows: one decoder only.
                let smoothChroma = !gray && quality <= 90 && scale == 8
                let bands = try Self.bandPixels(data, scale: scale, bands: threads)
                if smoothChroma {
                    #expect(bands == nil, "scale \(scale)/8")
                } else {
                    #expect(bands == serial.packedPixels, "scale \(scale)/8, \(threads) bands")
                }
            }
        }
    }

    @Test func bandsStartOnlyAtARowThatBeginsWithRST0() throws {
        for (interval, rows) in [(0, 1), (7, 0), (0, 3)] {
            let data = try Self.encoded(restartInterval: interval, restartRows: rows)
            try data.withUnsafeBytes { bytes in
                let markers = try JPEGMarkers(bytes)
                let layout = try #require(JPEGBands.layout(of: markers))
                // 1203×917 at 4:2:0: 76 MCUs of 16×16 a row, 58 rows.
                #expect((layout.mcusPerRow, layout.mcuRows, layout.mcuHeight) == (76, 58, 16))
                let splits = try #require(JPEGBands.splits(bytes, markers: markers, count: 3))
                #expect(splits.count == 2)
                for split in splits {
                    #expect(split.row % 16 == 0 && split.row > 0 && split.row < 917)
                    // The marker just before the band's data ends interval k − 1, k a multiple of 8: RST7.
                    #expect(bytes[split.dataOffset - 2] == 0xFF && bytes[split.dataOffset - 1] == 0xD7)
                    let interval = split.row / 16 * 76 / layout.restartInterval
                    #expect(interval % 8 == 0 && split.row / 16 * 76 % layout.restartInterval == 0)
                }
                #expect(splits[0].row < splits[1].row)
            }
        }
    }

    @Test func filesWithoutRestartMarkersOrWithLittleDataHaveNoBands() throws {
        let plain = try Self.encoded(restartRows: 0)
        let small = try Self.encoded(width: 200, height: 150)
        for data in [plain, small] {
            try data.withUnsafeBytes { bytes in
                let markers = try JPEGMarkers(bytes)
                #expect(JPEGBands.splits(bytes, markers: markers, count: 2) == nil)
            }
            let serial = try Image(data: data, options: Self.options(threads: 1, minimum: 150))
            #expect(try Image(data: data, options: Self.options(threads: 2, minimum: 150)).packedPixels == serial.packedPixels)
        }
        #expect(throws: ImageError.self) { try Image(data: plain, options: Self.options(threads: 0, minimum: nil)) }
    }

    /// A fault anywhere gives what one decoder gives: the same error, or the same pixels and warnings.
    @Test func damagedFilesDecodeAsWithOneThread() throws {
        let data = try Self.encoded()
        let entropy = try data.withUnsafeBytes { try JPEGMarkers($0).scanDataOffset }
        let restarts = data.indices.dropLast().filter { data[$0] == 0xFF && (0xD0...0xD7).contains(data[$0 + 1]) }
        var damaged: [(String, Data)] = []
        damaged.append(("truncated at 3/4", data.prefix(entropy + (data.count - entropy) * 3 / 4)))
        damaged.append(("truncated at 1/3", data.prefix(entropy + (data.count - entropy) / 3)))
        for fraction in [1, 2, 3] {
            var lost = data
            let marker = restarts[restarts.count * fraction / 4]
            lost[marker + 1] = 0x00  // a restart marker read as a stuffed 0xFF byte
            damaged.append(("RST lost at \(fraction)/4", lost))
            var garbled = data
            for offset in stride(from: marker - 400, to: marker - 300, by: 7) { garbled[offset] ^= 0x5A }
            damaged.append(("bits garbled at \(fraction)/4", garbled))
        }
        for (name, bad) in damaged {
            for minimum in [150, 300] {
                let serial = Result { try Image(data: bad, options: Self.options(threads: 1, minimum: minimum)) }
                let banded = Result { try Image(data: bad, options: Self.options(threads: 2, minimum: minimum)) }
                switch (serial, banded) {
                case (.success(let a), .success(let b)): #expect(a.packedPixels == b.packedPixels, "\(name)")
                case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "\(name)")
                default: Issue.record("\(name): one thread \(serial), bands \(banded)")
                }
            }
        }
    }
}
