import Foundation
import Testing
import VisageGeometry
import VisageImage

/// The 1/8-scale picture from DC terms alone (``JPEGDCDecoder``) against libjpeg's own 1/8 decode of the same
/// files (`JPEGCodec.decode(_:options:dcOnly: false)`), on small committed fixtures (Scripts/make-jpeg-dc-fixtures.py,
/// 203×157: no side a multiple of an MCU).
struct JPEGDCDecoderTests {
    static func fixture(_ name: String) throws -> Data { try Fixtures.data("jpeg-dc/\(name).jpg") }

    /// Shrink on load to 1/8 (the smallest halving scale: any longer side reaches 1 pixel).
    static func eighth(threads: Int = 1) -> ImageDecodingOptions {
        var options = ImageDecodingOptions(applyOrientation: false)
        options.minimumDimension = 1
        options.threads = threads
        return options
    }

    static func libjpeg(_ data: Data) throws -> Image {
        try data.withUnsafeBytes { bytes throws(ImageError) in try JPEGCodec.decode(bytes, options: eighth(), dcOnly: false) }
    }

    static func dcOnly(_ data: Data, threads: Int = 1) throws -> Image? {
        try data.withUnsafeBytes { bytes throws(ImageError) in
            try JPEGDCDecoder.decodeEighth(bytes, threads: threads, orientation: .up)
        }
    }

    /// Largest and mean absolute difference of two pictures' samples.
    static func difference(_ a: Image, _ b: Image) -> (maximum: Int, mean: Double) {
        let (x, y) = (a.packedPixels, b.packedPixels)
        let differences = zip(x, y).map { abs(Int($0) - Int($1)) }
        return (differences.max() ?? 0, Double(differences.reduce(0, +)) / Double(max(differences.count, 1)))
    }

    /// Gray, 4:4:4 and 4:2:2 are libjpeg's 1/8 decode exactly (its 1×1 IDCT, its colour tables, and at 1/8
    /// it repeats 4:2:2 chroma too). 4:2:0 differs in colour: libjpeg decodes its chroma at 1/8 with a 2×2
    /// IDCT (from the block's odd AC terms), this decoder repeats each chroma block's DC over 2×2 pixels.
    @Test(arguments: [
        ("gray", 0, 0.0), ("gray-restart", 0, 0.0), ("444", 0, 0.0), ("444-restart", 0, 0.0),
        ("422", 0, 0.0), ("422-restart", 0, 0.0), ("420", 48, 4.0), ("420-restart", 48, 4.0),
    ])
    func matchesLibjpegsEighth(name: String, maximum: Int, mean: Double) throws {
        let data = try Self.fixture(name)
        let reference = try Self.libjpeg(data)
        let decoded = try #require(try Self.dcOnly(data))
        #expect((decoded.width, decoded.height) == (26, 20))
        #expect((decoded.width, decoded.height, decoded.pixelFormat) == (reference.width, reference.height, reference.pixelFormat))
        let (largest, average) = Self.difference(decoded, reference)
        #expect(largest <= maximum, "\(name): max difference \(largest)")
        #expect(average <= mean, "\(name): mean difference \(average)")
        // Shrink on load at 1/8 now gives this picture.
        #expect(try Image(data: data, options: Self.eighth()).packedPixels == decoded.packedPixels)
    }

    @Test(arguments: ["gray", "444", "420", "422"])
    func restartMarkersChangeNothing(name: String) throws {
        let plain = try #require(try Self.dcOnly(try Self.fixture(name)))
        let restart = try #require(try Self.dcOnly(try Self.fixture("\(name)-restart"), threads: 2))
        #expect(plain.packedPixels == restart.packedPixels)
    }

    /// Restart intervals on two threads give the picture of one; the file must be large enough for two.
    @Test(arguments: [(false, 90), (false, 95), (true, 90)])
    func twoThreadsGiveOnesPicture(gray: Bool, quality: Int) throws {
        let data = try JPEGBandsTests.encoded(gray: gray, quality: quality, restartInterval: 0, restartRows: 1)
        #expect(data.count > 2 * 128 * 1024)
        let one = try #require(try Self.dcOnly(data, threads: 1))
        let two = try #require(try Self.dcOnly(data, threads: 2))
        #expect(one.packedPixels == two.packedPixels)
        // 4:4:4 and gray are exact (4:2:0's colour differs: `matchesLibjpegsEighth`).
        if quality > 90 || gray { #expect(one.packedPixels == (try Self.libjpeg(data)).packedPixels) }
    }

    /// Progressive files, and anything but a sequential Huffman scan, are left to libjpeg.
    @Test func progressiveIsLibjpegs() throws {
        let data = try Self.fixture("progressive")
        #expect(try Self.dcOnly(data) == nil)
        #expect(try Image(data: data, options: Self.eighth()).packedPixels == (try Self.libjpeg(data)).packedPixels)
    }

    /// Damaged data gives libjpeg's error, or a picture: libjpeg's own when the DC decoder gave up, and for
    /// gray, 4:4:4 and 4:2:2 (where both are exact) the same picture when it did not.
    @Test(arguments: ["gray-restart", "444-restart", "420", "422-restart"])
    func damagedDataGivesLibjpegsErrorOrPicture(name: String) throws {
        let original = try Self.fixture(name)
        let scan = try original.withUnsafeBytes { bytes in try #require(JPEGDCDecoder.headers(bytes)).scanDataOffset }
        var damaged: [(String, Data)] = []
        for fraction in [0.1, 0.5, 0.9] {
            let cut = scan + Int(Double(original.count - scan) * fraction)
            damaged.append(("cut at \(cut)", original.prefix(cut)))
        }
        damaged.append(("no end-of-image marker", original.dropLast(2)))
        damaged.append(("half an end-of-image marker", original.dropLast(1)))
        var state: UInt32 = 2024
        for _ in 0 ..< 40 {
            state = state &* 1_664_525 &+ 1_013_904_223
            let offset = scan + Int(state >> 8) % (original.count - 2 - scan)
            var flipped = original
            flipped[offset] ^= UInt8(truncatingIfNeeded: state | 1)
            damaged.append(("byte \(offset) flipped", flipped))
        }
        if let marker = (scan ..< original.count - 1).first(where: { original[$0] == 0xFF && original[$0 + 1] == 0xD0 }) {
            var lost = original
            lost.removeSubrange(marker ..< marker + 2)
            damaged.append(("RST0 removed", lost))
            var wrong = original
            wrong[marker + 1] = 0xD3
            damaged.append(("RST0 made RST3", wrong))
        }
        let exact = !name.hasPrefix("420")
        for (label, data) in damaged {
            let reference = Result { try Self.libjpeg(data) }
            let decoded = Result { try Image(data: data, options: Self.eighth(threads: 2)) }
            switch (reference, decoded) {
            case (.failure(let expected as ImageError), .failure(let error as ImageError)):
                #expect(error == expected, "\(label)")
            case (.success(let expected), .success(let image)):
                #expect((image.width, image.height) == (expected.width, expected.height), "\(label)")
                if exact { #expect(image.packedPixels == expected.packedPixels, "\(label)") }
            default:
                Issue.record("\(label): libjpeg \(reference), DC decoder \(decoded)")
            }
        }
    }

    /// `data` with the DHT segment of `table` (class << 4 | slot; Pillow writes one table a segment) replaced by
    /// `edit(counts, symbols)`'s.
    static func editingHuffmanTable(_ data: Data, _ table: UInt8, _ edit: ([UInt8], [UInt8]) -> ([UInt8], [UInt8])) throws -> Data {
        let bytes = [UInt8](data)
        var at = 2
        while at + 4 <= bytes.count, bytes[at + 1] != 0xDA {
            let end = at + 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
            if bytes[at + 1] == 0xC4, bytes[at + 4] == table {
                let (counts, symbols) = edit(Array(bytes[at + 5 ..< at + 21]), Array(bytes[at + 21 ..< end]))
                let body = [table] + counts + symbols
                return Data(bytes[..<at] + [0xFF, 0xC4, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body + bytes[end...])
            }
            at = end
        }
        throw CancellationError()
    }

    /// Huffman tables libjpeg refuses ("Bogus Huffman table definition", jdhuff.c's jpeg_make_d_derived_tbl)
    /// even where the scan never reads the bad code: a DC size over 15, and a code of all ones. The headers
    /// reader refuses them too, so neither this decoder nor ``JPEGSparseDecoder`` (which fast detection runs
    /// without libjpeg) reads a file a full decode refuses: before, fast detection answered no faces for
    /// Tests/Corpus's jpeg-dc-table-symbol-over-15.jpg and jpeg-huffman-all-ones-code.jpg (the jpeg-shrink
    /// fuzz target's finding 18) where a full decode gives corrupt_image.
    @Test func huffmanTablesLibjpegRefusesAreNotRead() throws {
        let original = try Self.fixture("420")
        let edits: [(String, Data)] = [
            ("chroma DC size 42", try Self.editingHuffmanTable(original, 0x01) { counts, symbols in (counts, symbols.dropLast() + [42]) }),
            ("luma DC size 16", try Self.editingHuffmanTable(original, 0x00) { counts, symbols in (counts, symbols.dropLast() + [16]) }),
            ("luma DC code of all ones", try Self.editingHuffmanTable(original, 0x00) { counts, symbols in
                let longest = counts.lastIndex { $0 > 0 }!
                var more = counts
                more[longest] += 1
                return (more, symbols + [0])
            }),
        ]
        for (label, data) in edits {
            let full = Result {
                try data.withUnsafeBytes { bytes throws(ImageError) in
                    try JPEGCodec.decode(bytes, options: ImageDecodingOptions(applyOrientation: false), dcOnly: false)
                }
            }
            guard case .failure(let error) = full, case .corrupt(.jpeg, let reason) = error as? ImageError else {
                Issue.record("\(label): libjpeg gave \(full)")
                continue
            }
            #expect(reason.contains("Huffman"), "\(label): \(reason)")
            data.withUnsafeBytes { bytes in
                #expect(JPEGDCDecoder.headers(bytes) == nil, "\(label)")
                #expect(JPEGSparseDecoder.pixels(bytes, rows: [0, 80], columns: [0, 100]) == nil, "\(label)")
            }
        }
        // The tables as written, and a DC size of 15, are read.
        let fifteen = try Self.editingHuffmanTable(original, 0x01) { counts, symbols in (counts, symbols.dropLast() + [15]) }
        for data in [original, fifteen] {
            data.withUnsafeBytes { bytes in #expect(JPEGDCDecoder.headers(bytes) != nil) }
        }
    }

    /// The skip table's entries against decoding the same bits one symbol at a time.
    @Test func skipTableStepsAreWholeSymbols() throws {
        let data = try Self.fixture("420")
        let headers = try data.withUnsafeBytes { bytes in try #require(JPEGDCDecoder.headers(bytes)) }
        let bits = JPEGDCDecoder.acLookupBits
        for codes in headers.acCodes.compactMap({ $0 }) {
            let table = codes.skipTable(bits: bits)
            var state: UInt64 = 7
            for _ in 0 ..< 2000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let index = Int(state >> UInt64(64 - bits))
                // One symbol at a time, as libjpeg reads them, while code and extra bits lie within `bits`.
                var window = UInt64(index) << UInt64(64 - bits), used = 0, positions = 0, ends = false
                while let (length, symbol) = codes.decode(window, longerThan: 0), used + length <= bits, positions < 64 {
                    let run = Int(symbol >> 4), size = Int(symbol & 15)
                    if size == 0, run != 15 { used += length; ends = true; break }
                    guard used + length + size <= bits else { break }
                    used += length + size
                    positions += size == 0 ? 16 : run + 1
                    window <<= UInt64(length + size)
                }
                // consumed | cost << 6 | ends << 14, with bits 4–5 clear: the entry's low 6 bits are the shift.
                let entry = table[index]
                #expect(Int(entry & 63) == used)
                if used > 0 {
                    #expect(Int(entry >> 6) & 0xFF == min(positions + (ends ? 65 : 0), 255))
                    #expect((entry & 0x4000 != 0) == ends)
                } else {
                    #expect(Int(entry >> 6) & 0xFF == 255)
                    #expect(entry & 0x4000 == 0)
                }
            }
        }
    }

    /// The DC table's entries against decoding the same bits one symbol at a time: code and extra bits'
    /// length (the entry's low 6 bits, the shift), size and code length, or 0 where the code is longer
    /// than the table's bits or its size past 11.
    @Test(arguments: ["420", "444"])
    func dcTableEntriesAreOneCode(fixture: String) throws {
        let data = try Self.fixture(fixture)
        let headers = try data.withUnsafeBytes { bytes in try #require(JPEGDCDecoder.headers(bytes)) }
        let bits = JPEGDCDecoder.dcLookupBits
        for codes in headers.dcCodes.compactMap({ $0 }) {
            let table = codes.dcTable(bits: bits)
            for index in 0 ..< 1 << bits {
                let entry = Int(table[index])
                guard let (length, symbol) = codes.decode(UInt64(index) << UInt64(64 - bits), longerThan: 0), length <= bits,
                      symbol <= 11
                else {
                    #expect(entry == 0, "index \(index)")
                    continue
                }
                #expect(entry & 63 == length + Int(symbol), "index \(index)")
                #expect((entry >> 6) & 15 == Int(symbol), "index \(index)")
                #expect(entry >> 10 == length, "index \(index)")
            }
        }
    }

    /// The value table's entries (JPEGSparseDecoder's wanted blocks) against decoding the same bits one
    /// symbol at a time, as libjpeg does: code, run, extra bits and F.2.2.1's sign extension.
    @Test(arguments: ["420", "444"])
    func valueTableEntriesAreOneSymbol(fixture: String) throws {
        let data = try Self.fixture(fixture)
        let headers = try data.withUnsafeBytes { bytes in try #require(JPEGDCDecoder.headers(bytes)) }
        for bits in [10, 12] {
            for codes in headers.acCodes.compactMap({ $0 }) {
                let table = codes.valueTable(bits: bits)
                var (wholeSymbols, ends) = (0, 0)
                for index in 0 ..< 1 << bits {
                    let window = UInt64(index) << UInt64(64 - bits)
                    let entry = Int(table[index])
                    guard let (length, symbol) = codes.decode(window, longerThan: 0), length <= bits else {
                        #expect(entry == 0x20, "index \(index): no whole code")
                        continue
                    }
                    let run = Int(symbol >> 4), size = Int(symbol & 15)
                    if size == 0 {
                        if run == 15 {
                            #expect(entry == 15 << 8 | length)
                        } else {
                            #expect(entry == 0x20 | length)
                            ends += 1
                        }
                        continue
                    }
                    guard length + size <= bits else {
                        #expect(entry == 0x20, "index \(index): extra bits past the index")
                        continue
                    }
                    let extra = Int((window << UInt64(length)) >> UInt64(64 - size))
                    let value = extra < 1 << (size - 1) ? extra - (1 << size) + 1 : extra
                    #expect(entry & 31 == length + size)
                    #expect((entry >> 8) & 15 == run)
                    #expect(entry >> 16 == value)
                    #expect(entry & 0xE0 == 0)
                    wholeSymbols += 1
                }
                #expect(wholeSymbols > 0 && ends > 0)
            }
        }
    }
}
