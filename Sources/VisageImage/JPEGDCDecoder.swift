import Dispatch
import Foundation
import VisageGeometry

/// The 1/8-scale picture of a baseline JPEG from its blocks' DC coefficients alone, read by an entropy
/// decoder that skips the AC coefficients several Huffman symbols at a time.
///
/// At 1/8 scale each 8×8 block becomes one pixel, its DC term, but libjpeg still decodes every AC symbol
/// one by one to step over it: on a noisy 12-megapixel photo that is nearly all of the decode's time. Here
/// each AC table gets a lookup table indexed by the next ``acLookupBits`` bits of data, giving how many bits
/// and coefficient positions the complete symbols (code plus extra bits) within those bits take, and
/// whether the block ends there; a symbol that does not fit, or a step past the block's end, is decoded
/// alone. The entropy-coded data is first copied without its stuffed bytes, split at its restart markers,
/// whose intervals then decode on up to `threads` threads.
///
/// Only what it is sure of is decoded: one sequential Huffman scan of 8-bit samples, gray or YCbCr with
/// the luma at the largest sampling factors (1 or 2) and the chroma at 1×1, whose data decodes with valid
/// codes, every interval ending within a byte of its restart marker, in order, and the last at the end-of-
/// image marker. Anything else (progressive, arithmetic, 12-bit, CMYK, odd sampling, a bad code, a lost or
/// extra marker, data that ends early) returns nil, and the caller decodes with libjpeg, which reports or
/// tolerates what is wrong as it always does.
///
/// Pixels follow libjpeg's 1×1 IDCT (DC times its quantiser, divided by 8, rounded, plus 128) and its
/// YCbCr→RGB tables, and chroma is each block's DC repeated over the luma blocks it covers, as libjpeg
/// repeats it at 1/8: gray, 4:4:4 and 4:2:2 come out bit-identical to libjpeg's 1/8 decode. 4:2:0 differs in
/// colour near edges (up to 40–48 levels in a channel, a mean of 1.0–3.6, on the test files): libjpeg decodes
/// its chroma at 1/8 with a 2×2 IDCT, which needs the block's odd AC terms, so all its chroma coefficients.
package enum JPEGDCDecoder {
    /// Bits of data that index the AC skip tables (2^13 entries of 2 bytes: 16 KB per table; on the noisy
    /// 12 MP photo 13 bits took 2–3 % less time than 12, 14 more). At most 14: one refill serves four steps.
    package static let acLookupBits = 13
    /// Bits of data that index the DC code tables.
    package static let dcLookupBits = 9
    /// Below this much entropy-coded data a second thread costs more than it saves (as ``JPEGBands``).
    static let minimumBytesPerThread = 128 * 1024

    /// The 1/8-scale picture of a JPEG (libjpeg's size: each side divided by 8, rounded up), or nil when the
    /// file is not one this decoder reads or its data is not consistent (the caller then uses libjpeg).
    /// Restart intervals decode on up to `threads` threads.
    package static func decodeEighth(
        _ bytes: UnsafeRawBufferPointer, threads: Int, orientation: ImageOrientation
    ) throws(ImageError) -> Image? {
        guard let headers = headers(bytes), let (data, starts) = intervals(bytes, from: headers.scanDataOffset) else { return nil }
        defer { data.deallocate() }
        let threads = min(threads, max(1, (starts.last ?? 0) / minimumBytesPerThread))
        guard let planes = decodeDC(headers: headers, data: UnsafeRawBufferPointer(data), starts: starts, threads: threads) else {
            return nil
        }
        let size = outputSize(headers)
        let format: PixelFormat = headers.components.count == 1 ? .gray8 : .rgb8
        return try Image(uninitializedWidth: size.width, height: size.height, pixelFormat: format, orientation: orientation) { out throws(ImageError) in
            writePixels(
                headers: headers, planes: planes, into: out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                bytesPerRow: size.width * format.bytesPerPixel)
        }
    }

    struct Component {
        var id: UInt8
        var horizontal: Int
        var vertical: Int
        var quantTable: Int
        var dcTable = 0
        var acTable = 0
    }

    /// The headers as far as the first scan.
    package struct Headers {
        var width = 0
        var height = 0
        /// In frame order.
        var components: [Component] = []
        /// Frame indices of the scan's components, in scan order.
        var scanOrder: [Int] = []
        var restartInterval = 0
        package var scanDataOffset = 0
        package var dcCodes: [HuffmanCodes?] = Array(repeating: nil, count: 4)
        package var acCodes: [HuffmanCodes?] = Array(repeating: nil, count: 4)
        /// Each quantisation table's DC entry.
        var dcQuantisers: [Int?] = Array(repeating: nil, count: 4)
        /// Each quantisation table in natural (row-major) order.
        var quantTables: [[Int32]?] = Array(repeating: nil, count: 4)
        var maxHorizontal: Int { components.map(\.horizontal).max() ?? 1 }
        var maxVertical: Int { components.map(\.vertical).max() ?? 1 }
    }

    /// A Huffman table in canonical form (JPEG's Annex C), checked as libjpeg checks it.
    package struct HuffmanCodes {
        /// Per code length 1…16: the largest code of that length (−1: none), and the index of its first symbol.
        var maxCode = [Int](repeating: -1, count: 18)
        var firstIndex = [Int](repeating: 0, count: 17)
        var firstCode = [Int](repeating: 0, count: 17)
        var symbols: [UInt8] = []
        /// (length, symbol) of every code, in code order.
        var codes: [(length: Int, code: Int, symbol: UInt8)] = []

        init?(counts: [Int], symbols: [UInt8]) {
            guard counts.count == 16, counts.reduce(0, +) == symbols.count, symbols.count <= 256 else { return nil }
            self.symbols = symbols
            var code = 0, index = 0
            for length in 1...16 {
                firstIndex[length] = index
                firstCode[length] = code
                for _ in 0 ..< counts[length - 1] {
                    codes.append((length, code, symbols[index]))
                    code += 1
                    index += 1
                }
                // libjpeg (jdhuff.c, jpeg_make_d_derived_tbl): a code may not be all ones, so one past
                // the last code of a length must still fit in that length ("Bogus Huffman table definition").
                guard code < 1 << length else { return nil }
                maxCode[length] = counts[length - 1] > 0 ? code - 1 : -1
                code <<= 1
            }
        }

        /// The code at the top of `bits` among codes longer than `longerThan`: (length, symbol), nil if none.
        package func decode(_ bits: UInt64, longerThan: Int) -> (length: Int, symbol: UInt8)? {
            for length in (longerThan + 1)...16 where maxCode[length] >= 0 {
                let code = Int(bits >> UInt64(64 - length))
                if code <= maxCode[length], code >= firstCode[length] {
                    return (length, symbols[firstIndex[length] + code - firstCode[length]])
                }
            }
            return nil
        }

        /// Single-symbol lookup on the next `bits` bits: `length << 8 | symbol`, 0 for a longer code.
        func lookup(bits: Int) -> [UInt16] {
            var table = [UInt16](repeating: 0, count: 1 << bits)
            for (length, code, symbol) in codes where length <= bits {
                let first = code << (bits - length), count = 1 << (bits - length)
                for index in first ..< first + count { table[index] = UInt16(length) << 8 | UInt16(symbol) }
            }
            return table
        }

        /// The DC table of both decoders' loops: per `bits`-bit index, for a code of at most `bits` bits with
        /// a size (its extra bits) of at most 11, `length + size | size << 6 | length << 10`, so that the
        /// entry itself is the shift past code and extra bits (`&<<` masks its count to 6 bits); 0 for a
        /// longer code, or a size past 11 (both read by ``decode(_:longerThan:)`` and checked there).
        package func dcTable(bits: Int) -> [UInt16] {
            var table = [UInt16](repeating: 0, count: 1 << bits)
            for (length, code, symbol) in codes where length <= bits && symbol <= 11 {
                let first = code << (bits - length), count = 1 << (bits - length)
                let entry = UInt16(length + Int(symbol)) | UInt16(symbol) << 6 | UInt16(length) << 10
                for index in first ..< first + count { table[index] = entry }
            }
            return table
        }

        /// The AC value table of ``JPEGSparseDecoder``'s wanted blocks (libjpeg-turbo's and stb_image's
        /// "fast AC" idea): per `bits`-bit index, one symbol read whole, code and extra bits in one step.
        /// A coefficient whose code and extra bits both fit: the bits they take (low 5 bits), its run of
        /// zeros `<< 8`, and its value (F.2.2.1's sign extension) `<< 16`; a run of 16 zeros (ZRL) likewise,
        /// as a run of 15 and a value of 0. An end of block: its code's length `| 0x20`. Anything else
        /// (a longer code, or extra bits past the index) is `0x20` alone: that symbol is read on its own.
        package func valueTable(bits: Int) -> [Int32] {
            var table = [Int32](repeating: 0x20, count: 1 << bits)
            for (length, code, symbol) in codes where length <= bits {
                let run = Int(symbol >> 4), size = Int(symbol & 15)
                let first = code << (bits - length), count = 1 << (bits - length)
                if size == 0 {
                    // ZRL: sixteen positions, nothing set; any other run with size 0 ends the block (as libjpeg).
                    let entry = run == 15 ? Int32(15 << 8 | length) : Int32(0x20 | length)
                    for index in first ..< first + count { table[index] = entry }
                    continue
                }
                guard length + size <= bits else { continue }
                for index in first ..< first + count {
                    let extra = (index >> (bits - length - size)) & ((1 << size) - 1)
                    let value = extra < 1 << (size - 1) ? extra - (1 << size) + 1 : extra
                    table[index] = Int32(value) << 16 | Int32(run << 8 | (length + size))
                }
            }
            return table
        }

        /// The AC skip table (see ``JPEGDCDecoder``): per `bits`-bit index (at most 15), `consumed | cost << 6 |
        /// endsBlock << 14`. `consumed` (bits 0–3; bits 4–5 are zero, so that the entry itself is the shift,
        /// which masks its count to 6 bits) is the bits the complete symbols take; `cost` the coefficient
        /// positions they advance, plus 65 when the block ends (an end of block must fall within it), 255 when
        /// no whole symbol fits (the symbol is then read alone, ``lookup(bits:)``). So the loop takes a step
        /// while `cost` is below the positions left, with one test, and sorts out the block's last step (an end,
        /// the last position, or a symbol read alone) once. Two bytes an entry, so that a table (8 KB at 12 bits)
        /// and the other component's stay in the level-1 cache beside the data: with four bytes they filled
        /// it, and the loop, which waits on each lookup, waited on the level-2 cache.
        package func skipTable(bits: Int) -> [UInt16] {
            precondition(bits <= 15)
            let single = lookup(bits: bits)
            var table = [UInt16](repeating: 0, count: 1 << bits)
            let mask = (1 << bits) - 1
            for index in 0 ..< 1 << bits {
                var used = 0, positions = 0, ends = false
                while used < bits, positions < 64 {
                    let entry = single[(index << used) & mask]
                    let length = Int(entry >> 8), symbol = Int(entry & 0xFF)
                    // The code must lie within the real bits (not the zeros shifted in) …
                    guard entry != 0, length <= bits - used else { break }
                    let run = symbol >> 4, size = symbol & 15
                    if size == 0, run != 15 {
                        used += length
                        ends = true  // end of block (libjpeg reads any (run, 0) but ZRL so)
                        break
                    }
                    // … and so must its extra bits.
                    guard used + length + size <= bits else { break }
                    used += length + size
                    positions += size == 0 ? 16 : run + 1
                }
                let cost = used == 0 ? 255 : min(positions + (ends ? 65 : 0), 255)
                table[index] = UInt16(ends ? 1 << 14 : 0) | UInt16(cost) << 6 | UInt16(used)
            }
            return table
        }
    }

    /// Reads the headers up to the first scan; nil for anything this decoder does not handle.
    package static func headers(_ bytes: UnsafeRawBufferPointer) -> Headers? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var headers = Headers()
        var sawFrame = false
        // What libjpeg's default_decompress_parms (jdapimin.c) decides a three-component frame's colour space
        // from: a JFIF marker means YCbCr; else an Adobe marker's transform (0: RGB); else the component IDs.
        var sawJFIF = false
        var adobeTransform: UInt8?
        var offset = 2
        while true {
            guard offset + 4 <= bytes.count, bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { return nil }
            var at = offset + 4
            switch marker {
            case 0xC0, 0xC1:
                guard !sawFrame, length >= 8, bytes[at] == 8 else { return nil }
                headers.height = Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
                headers.width = Int(bytes[at + 3]) << 8 | Int(bytes[at + 4])
                let count = Int(bytes[at + 5])
                guard count == 1 || count == 3, length == 8 + 3 * count, headers.width > 0, headers.height > 0 else { return nil }
                at += 6
                for _ in 0 ..< count {
                    let factors = bytes[at + 1], table = Int(bytes[at + 2])
                    let component = Component(id: bytes[at], horizontal: Int(factors >> 4), vertical: Int(factors & 15), quantTable: table)
                    guard (1...2).contains(component.horizontal), (1...2).contains(component.vertical), table < 4,
                          !headers.components.contains(where: { $0.id == component.id })
                    else { return nil }
                    headers.components.append(component)
                    at += 3
                }
                sawFrame = true
            case 0xC4:
                while at < end {
                    guard at + 17 <= end else { return nil }
                    let kind = Int(bytes[at] >> 4), slot = Int(bytes[at] & 15)
                    guard kind <= 1, slot < 4 else { return nil }
                    let counts = (0 ..< 16).map { Int(bytes[at + 1 + $0]) }
                    let total = counts.reduce(0, +)
                    guard at + 17 + total <= end else { return nil }
                    let symbols = [UInt8](bytes[at + 17 ..< at + 17 + total])
                    // libjpeg refuses a DC table with a size over 15 even where no code of it is read; this
                    // reader must not read a file libjpeg refuses (``JPEGSparseDecoder`` runs without libjpeg).
                    guard kind == 1 || symbols.allSatisfy({ $0 <= 15 }),
                          let codes = HuffmanCodes(counts: counts, symbols: symbols)
                    else { return nil }
                    if kind == 0 { headers.dcCodes[slot] = codes } else { headers.acCodes[slot] = codes }
                    at += 17 + total
                }
            case 0xDB:
                while at < end {
                    let precision = Int(bytes[at] >> 4), slot = Int(bytes[at] & 15)
                    let size = precision == 0 ? 64 : 128
                    guard precision <= 1, slot < 4, at + 1 + size <= end else { return nil }
                    headers.dcQuantisers[slot] = precision == 0 ? Int(bytes[at + 1]) : Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
                    // The whole table, from zigzag to natural order (``JPEGSparseDecoder``).
                    var table = [Int32](repeating: 0, count: 64)
                    for index in 0 ..< 64 {
                        table[JPEGSparseDecoder.naturalOrder[index]] = precision == 0
                            ? Int32(bytes[at + 1 + index]) : Int32(bytes[at + 1 + 2 * index]) << 8 | Int32(bytes[at + 2 + 2 * index])
                    }
                    headers.quantTables[slot] = table
                    at += 1 + size
                }
            case 0xDD:
                guard length == 4 else { return nil }
                headers.restartInterval = Int(bytes[at]) << 8 | Int(bytes[at + 1])
            case 0xDA:
                guard sawFrame, length >= 6 else { return nil }
                let count = Int(bytes[at])
                guard count == headers.components.count, length == 6 + 2 * count else { return nil }
                at += 1
                for _ in 0 ..< count {
                    guard let index = headers.components.firstIndex(where: { $0.id == bytes[at] }), !headers.scanOrder.contains(index)
                    else { return nil }
                    let tables = bytes[at + 1]
                    headers.components[index].dcTable = Int(tables >> 4)
                    headers.components[index].acTable = Int(tables & 15)
                    guard headers.components[index].dcTable < 4, headers.components[index].acTable < 4,
                          headers.dcCodes[headers.components[index].dcTable] != nil, headers.acCodes[headers.components[index].acTable] != nil,
                          headers.dcQuantisers[headers.components[index].quantTable] != nil
                    else { return nil }
                    headers.scanOrder.append(index)
                    at += 2
                }
                // Spectral selection 0…63, no successive approximation: a sequential scan.
                guard bytes[at] == 0, bytes[at + 1] == 63, bytes[at + 2] == 0 else { return nil }
                // Colour: YCbCr as libjpeg sees it, not RGB (cjpeg -rgb, Adobe's transform 0), which libjpeg
                // outputs without conversion; luma at the largest sampling factors, chroma at 1×1 (4:4:4, 4:2:2,
                // 4:2:0, 4:4:0).
                if count == 3 {
                    let ids = headers.components.map(\.id)
                    let rgb = !sawJFIF && (adobeTransform.map { $0 == 0 } ?? (ids == [82, 71, 66]))
                    guard !rgb else { return nil }
                    let (luma, cb, cr) = (headers.components[0], headers.components[1], headers.components[2])
                    guard luma.horizontal == headers.maxHorizontal, luma.vertical == headers.maxVertical,
                          cb.horizontal == 1, cb.vertical == 1, cr.horizontal == 1, cr.vertical == 1
                    else { return nil }
                }
                headers.scanDataOffset = end
                return headers
            case 0xE0:
                // jdmarker.c's examine_app0: "JFIF" and a NUL, in at least 14 bytes of data.
                if length - 2 >= 14, bytes[at] == 0x4A, bytes[at + 1] == 0x46, bytes[at + 2] == 0x49, bytes[at + 3] == 0x46,
                   bytes[at + 4] == 0 {
                    sawJFIF = true
                }
            case 0xEE:
                // examine_app14: "Adobe" in at least 12 bytes of data, the transform in the twelfth.
                if length - 2 >= 12, bytes[at] == 0x41, bytes[at + 1] == 0x64, bytes[at + 2] == 0x6F, bytes[at + 3] == 0x62,
                   bytes[at + 4] == 0x65 {
                    adobeTransform = bytes[at + 11]
                }
            case 0xC2...0xCF, 0xD8...0xD9, 0xD0...0xD7, 0x01:
                return nil  // another frame type, arithmetic tables, or a marker out of place
            default:
                break  // application data, comments
            }
            offset = end
        }
    }

    /// The entropy-coded data without stuffed bytes, in restart intervals: `bytes` holds the intervals one
    /// after another (and zeros past the end, for the bit reader's look-ahead), `starts` each interval's
    /// first byte (and the end). Nil unless the data ends at an end-of-image marker and every other marker
    /// in it is the next restart marker.
    static func intervals(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (bytes: UnsafeMutableRawBufferPointer, starts: [Int])? {
        let padding = 16 * 1024
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count - start + padding, alignment: 16)
        guard let source = bytes.baseAddress, let target = output.baseAddress else { output.deallocate(); return nil }
        var starts = [0]
        var read = start, written = 0
        while true {
            // Copy up to the next 0xFF.
            let found = memchr(source + read, 0xFF, bytes.count - read)
            let run = found.map { source.distance(to: UnsafeRawPointer($0)) - read } ?? bytes.count - read
            (target + written).copyMemory(from: source + read, byteCount: run)
            written += run
            read += run
            guard read + 1 < bytes.count else { output.deallocate(); return nil }  // no end-of-image marker
            let marker = bytes[read + 1]
            read += 2
            if marker == 0x00 {
                target.storeBytes(of: 0xFF, toByteOffset: written, as: UInt8.self)
                written += 1
            } else if marker == 0xD9 {
                starts.append(written)
                break
            } else if (0xD0...0xD7).contains(marker), Int(marker - 0xD0) == (starts.count - 1) % 8 {
                starts.append(written)
            } else {
                output.deallocate()
                return nil
            }
        }
        (target + written).initializeMemory(as: UInt8.self, repeating: 0, count: padding)
        return (UnsafeMutableRawBufferPointer(rebasing: output[0 ..< written + padding]), starts)
    }

    /// Each component's DC coefficients (after prediction), on the grid of its blocks in the scan's MCUs, in
    /// frame order.
    final class Planes {
        let blocksPerRow: [Int]
        let blockRows: [Int]
        let values: [UnsafeMutablePointer<Int16>]

        init(blocksPerRow: [Int], blockRows: [Int]) {
            self.blocksPerRow = blocksPerRow
            self.blockRows = blockRows
            values = zip(blocksPerRow, blockRows).map { width, height in
                let plane = UnsafeMutablePointer<Int16>.allocate(capacity: width * height)
                plane.initialize(repeating: 0, count: width * height)
                return plane
            }
        }

        deinit { values.forEach { $0.deallocate() } }
    }

    /// Per block of an MCU, in order: its component (frame index), and where it goes on that component's grid.
    struct MCUBlock {
        var component: Int
        var scanIndex: Int
        var dx: Int
        var dy: Int
        var horizontal: Int
        var vertical: Int
    }

    /// Decodes the DC coefficients of `headers`' scan from the intervals of `data`; nil on any inconsistency.
    static func decodeDC(headers: Headers, data: UnsafeRawBufferPointer, starts: [Int], threads: Int) -> Planes? {
        let interleaved = headers.scanOrder.count > 1
        let (mcusPerRow, mcuRows, interval) = headers.mcuLayout
        let totalMCUs = mcusPerRow * mcuRows
        guard starts.count - 1 == (totalMCUs + interval - 1) / interval else { return nil }

        let blocksPerRow = headers.components.map { interleaved ? mcusPerRow * $0.horizontal : mcusPerRow }
        let blockRows = headers.components.map { interleaved ? mcuRows * $0.vertical : mcuRows }
        guard let mcuBlocks = headers.mcuBlocks else { return nil }
        let tables = ScanTables(headers: headers)
        let planes = Planes(blocksPerRow: blocksPerRow, blockRows: blockRows)

        let intervalCount = starts.count - 1
        let bands = max(1, min(threads, intervalCount))
        let succeeded = UnsafeMutableBufferPointer<Bool>.allocate(capacity: bands)
        succeeded.initialize(repeating: false)
        defer { succeeded.deallocate() }
        // Each band writes only its own MCUs' blocks and flag.
        let shared = Unchecked((planes, succeeded, data, tables, mcuBlocks, starts, headers.components))
        let work: @Sendable (Int) -> Void = { band in
            let (planes, succeeded, data, tables, mcuBlocks, starts, components) = shared.value
            let first = intervalCount * band / bands, last = intervalCount * (band + 1) / bands
            succeeded[band] = decodeIntervals(
                first ..< last, interval: interval, totalMCUs: totalMCUs, mcusPerRow: mcusPerRow, mcuBlocks: mcuBlocks,
                planes: planes, tables: tables, components: components, data: data, starts: starts)
        }
        if bands == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: bands, execute: work) }
        guard succeeded.allSatisfy({ $0 }) else { return nil }
        return planes
    }

    /// The scan's lookup tables, one per Huffman table slot used (components sharing a table share its lookup).
    final class ScanTables {
        let dcLookups: [UnsafeMutablePointer<UInt16>?]
        let acTables: [UnsafeMutablePointer<UInt16>?]
        /// Per AC table, ``HuffmanCodes/lookup(bits:)`` at ``acLookupBits``: the symbols the skip table leaves alone.
        let acSingles: [UnsafeMutablePointer<UInt16>?]
        let dcCodes: [HuffmanCodes?]
        let acCodes: [HuffmanCodes?]
        /// The same codes in memory of their own, for the decoding loops' rare long codes: a pointer costs
        /// nothing to pass per block, where a copy of the struct retains and releases its arrays.
        let dcCodePointers: [UnsafeMutablePointer<HuffmanCodes>?]
        let acCodePointers: [UnsafeMutablePointer<HuffmanCodes>?]

        init(headers: Headers) {
            let scan = headers.scanOrder.map { headers.components[$0] }
            dcCodes = (0 ..< 4).map { slot in scan.contains { $0.dcTable == slot } ? headers.dcCodes[slot] : nil }
            acCodes = (0 ..< 4).map { slot in scan.contains { $0.acTable == slot } ? headers.acCodes[slot] : nil }
            dcLookups = dcCodes.map { $0.map { Self.pinned($0.dcTable(bits: dcLookupBits)) } }
            acTables = acCodes.map { $0.map { Self.pinned($0.skipTable(bits: acLookupBits)) } }
            acSingles = acCodes.map { $0.map { Self.pinned($0.lookup(bits: acLookupBits)) } }
            dcCodePointers = dcCodes.map { $0.map { Self.pinned(codes: $0) } }
            acCodePointers = acCodes.map { $0.map { Self.pinned(codes: $0) } }
        }

        private static func pinned(codes: HuffmanCodes) -> UnsafeMutablePointer<HuffmanCodes> {
            let pointer = UnsafeMutablePointer<HuffmanCodes>.allocate(capacity: 1)
            pointer.initialize(to: codes)
            return pointer
        }

        /// A table copied to memory of its own, read through a plain pointer in the decoding loop (freed by `deinit`).
        private static func pinned<Element>(_ table: [Element]) -> UnsafeMutablePointer<Element> {
            let pointer = UnsafeMutablePointer<Element>.allocate(capacity: table.count)
            pointer.initialize(from: table, count: table.count)
            return pointer
        }

        deinit {
            dcLookups.forEach { $0?.deallocate() }
            acTables.forEach { $0?.deallocate() }
            acSingles.forEach { $0?.deallocate() }
            for pointer in dcCodePointers + acCodePointers {
                pointer?.deinitialize(count: 1)
                pointer?.deallocate()
            }
        }
    }

    /// One block of an MCU as the loop needs it: its tables, its prediction's slot, and where its DC goes.
    private struct BlockPlan {
        var dcLookup: UnsafePointer<UInt16>
        var acTable: UnsafePointer<UInt16>
        var acSingle: UnsafePointer<UInt16>
        var slot: Int
        var plane: UnsafeMutablePointer<Int16>
        /// The block's place within its MCU, and how far its plane moves per MCU row and per MCU.
        var offset: Int
        var rowStep: Int
        var columnStep: Int
    }

    // swiftlint:disable:next function_parameter_count function_body_length cyclomatic_complexity
    private static func decodeIntervals(
        _ range: Range<Int>, interval: Int, totalMCUs: Int, mcusPerRow: Int, mcuBlocks: [MCUBlock], planes: Planes,
        tables: ScanTables, components: [Component], data: UnsafeRawBufferPointer, starts: [Int]
    ) -> Bool {
        guard let base = data.baseAddress else { return false }
        let acShift = UInt64(64 - acLookupBits), dcShift = UInt64(64 - dcLookupBits)
        let dcCodes = mcuBlocks.map { UnsafePointer(tables.dcCodePointers[components[$0.component].dcTable]!) }
        let acCodes = mcuBlocks.map { UnsafePointer(tables.acCodePointers[components[$0.component].acTable]!) }
        let plans = mcuBlocks.map { block in
            let component = components[block.component], stride = planes.blocksPerRow[block.component]
            return BlockPlan(
                dcLookup: UnsafePointer(tables.dcLookups[component.dcTable]!), acTable: UnsafePointer(tables.acTables[component.acTable]!),
                acSingle: UnsafePointer(tables.acSingles[component.acTable]!),
                slot: block.scanIndex, plane: planes.values[block.component], offset: block.dy * stride + block.dx,
                rowStep: block.vertical * stride, columnStep: block.horizontal)
        }
        return plans.withUnsafeBufferPointer { plans in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 4) { predictions in
                for index in range {
                    predictions.initialize(repeating: 0)
                    let segmentStart = starts[index], segmentEnd = starts[index + 1]
                    var pointer = base + segmentStart
                    let limitBits = segmentEnd * 8
                    var buffer: UInt64 = 0, available = 0
                    let firstMCU = index * interval, lastMCU = min(firstMCU + interval, totalMCUs)
                    var row = firstMCU / mcusPerRow, column = firstMCU - row * mcusPerRow
                    for _ in firstMCU ..< lastMCU {
                        for blockIndex in plans.indices {
                            let plan = plans[blockIndex]
                            // Refill to 56…63 bits (F. Giesen's branchless refill, big-endian).
                            guard let difference = Self.dcDifference(
                                buffer: &buffer, available: &available, pointer: &pointer, lookup: plan.dcLookup,
                                codes: dcCodes[blockIndex], shift: dcShift)
                            else { return false }
                            predictions[plan.slot] &+= difference
                            plan.plane[row &* plan.rowStep &+ column &* plan.columnStep &+ plan.offset] =
                                Int16(truncatingIfNeeded: predictions[plan.slot])
                            // AC: skipped, several symbols a step while they fit.
                            guard Self.skipAC(
                                buffer: &buffer, available: &available, pointer: &pointer, table: plan.acTable,
                                single: plan.acSingle, codes: acCodes[blockIndex], shift: acShift)
                            else { return false }
                        }
                        column &+= 1
                        if column == mcusPerRow { column = 0; row &+= 1 }
                        // Never more than an MCU's worth past the interval's data (the padding covers that).
                        if (pointer - base) &* 8 &- available > limitBits { return false }
                    }
                    // The interval must end within the last byte before its marker.
                    let consumed = (pointer - base) &* 8 &- available
                    guard consumed <= limitBits, consumed > limitBits &- 8 else { return false }
                }
                return true
            }
        }
    }
}

extension JPEGDCDecoder {
    /// The 1/8-scale size libjpeg gives the frame (each side rounded up).
    /// Refills `buffer` and reads one block's DC difference: a code of up to 16 bits (`lookup`, indexed by
    /// the top bits of `buffer` shifted right by `shift`, for the short ones; `codes` for the rest), then
    /// the `size` bits after it (none for size 0), sign-extended as JPEG's F.2.2.1; nil on a bad code.
    /// Shared by the DC decoder and ``JPEGSparseDecoder``; inlined into both loops.
    @inline(__always)
    package static func dcDifference(
        buffer: inout UInt64, available: inout Int, pointer: inout UnsafeRawPointer, lookup: UnsafePointer<UInt16>,
        codes: UnsafePointer<HuffmanCodes>, shift: UInt64
    ) -> Int? {
        buffer |= UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)) &>> UInt64(truncatingIfNeeded: available)
        pointer += (63 &- available) &>> 3
        available |= 56
        let entry = lookup[Int(buffer &>> shift)]
        if entry == 0 {
            // A code longer than the table's bits, or a size it leaves out.
            guard let (length, symbol) = codes.pointee.decode(buffer, longerThan: 0), symbol <= 11 else { return nil }
            let size = Int(symbol)
            let bits = Int(((buffer &<< UInt64(length)) &>> 1) &>> UInt64(63 &- size))
            buffer &<<= UInt64(length &+ size)
            available &-= length &+ size
            return bits &- (bits < ((1 &<< size) &>> 1) ? (1 &<< size) &- 1 : 0)
        }
        let length = Int(entry &>> 10), size = Int(entry &>> 6) & 15
        let bits = Int(((buffer &<< UInt64(length)) &>> 1) &>> UInt64(63 &- size))
        // The entry is the shift past code and extra bits (its low 6 bits).
        buffer &<<= UInt64(entry)
        available &-= Int(entry & 63)
        return bits &- (bits < ((1 &<< size) &>> 1) ? (1 &<< size) &- 1 : 0)
    }

    /// Steps over a block's AC symbols, several a step while they fit the skip table (`table`, from
    /// `codes`, indexed by the top bits of `buffer` shifted right by `shift`), the others one at a time
    /// (`single`: ``HuffmanCodes/lookup(bits:)``, then `codes` for longer codes); false on a bad code.
    /// Shared by the DC decoder and ``JPEGSparseDecoder``'s unwanted blocks; inlined into both loops.
    @inline(__always)
    package static func skipAC(
        buffer: inout UInt64, available: inout Int, pointer: inout UnsafeRawPointer, table: UnsafePointer<UInt16>,
        single: UnsafePointer<UInt16>, codes: UnsafePointer<HuffmanCodes>, shift: UInt64
    ) -> Bool {
        var left = 63
        while true {
            // Refill once for up to four steps of at most `acLookupBits` (≤ 14) bits each.
            buffer |= UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)) &>> UInt64(truncatingIfNeeded: available)
            pointer += (63 &- available) &>> 3
            available |= 56
            var step: UInt16 = 0, last = false
            for _ in 0 ..< 4 {
                step = table[Int(buffer &>> shift)]
                let cost = Int(step &>> 6) & 0xFF
                // The block's last step, or one to read alone: sorted out below.
                if cost >= left { last = true; break }
                // The entry is the shift: its count is its low 6 bits (`&<<`), `consumed`.
                buffer &<<= UInt64(step)
                available &-= Int(step & 15)
                left &-= cost
            }
            if !last { continue }
            let cost = Int(step &>> 6) & 0xFF
            if step & 0x4000 != 0 ? cost &- 65 < left : cost == left {
                // An end of block within the block, or symbols that fill it to its last position.
                buffer &<<= UInt64(step)
                available &-= Int(step & 15)
                return true
            }
            // One symbol alone: it does not fit the table, or the block ends inside the step.
            buffer |= UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)) &>> UInt64(truncatingIfNeeded: available)
            pointer += (63 &- available) &>> 3
            available |= 56
            let entry = single[Int(buffer &>> shift)]
            var length = Int(entry &>> 8), symbol = Int(entry & 0xFF)
            if entry == 0 {
                guard let (long, value) = codes.pointee.decode(buffer, longerThan: acLookupBits) else { return false }
                (length, symbol) = (long, Int(value))
            }
            let run = symbol &>> 4, size = symbol & 15
            buffer &<<= UInt64(length &+ size)
            available &-= length &+ size
            if size == 0, run != 15 { return true }
            left &-= size == 0 ? 16 : run &+ 1
            if left <= 0 { return true }
        }
    }

    static func outputSize(_ headers: Headers) -> (width: Int, height: Int) {
        ((headers.width + 7) / 8, (headers.height + 7) / 8)
    }

    /// Writes the 1/8-scale picture of `planes`: gray (one byte a pixel) for one component, else RGB.
    static func writePixels(headers: Headers, planes: Planes, into destination: UnsafeMutablePointer<UInt8>, bytesPerRow: Int) {
        let (width, height) = outputSize(headers)
        if headers.components.count == 1 {
            let q = headers.dcQuantisers[headers.components[0].quantTable]!
            for y in 0 ..< height {
                samples(planes.values[0] + y * planes.blocksPerRow[0], count: width, quantiser: q, into: destination + y * bytesPerRow)
            }
            return
        }
        // Luma at the largest sampling factors, chroma at 1×1 (``headers(_:)``).
        let maxH = headers.maxHorizontal, maxV = headers.maxVertical
        let quantisers = headers.components.map { headers.dcQuantisers[$0.quantTable]! }
        let chromaWidth = (width + maxH - 1) / maxH
        // A row of luma samples, and per chroma sample of the current chroma row what libjpeg's YCbCr→RGB
        // tables (jdcolor.c: 16 fractional bits) add to luma for red, green and blue.
        let yRow = UnsafeMutablePointer<UInt8>.allocate(capacity: width + 2 * chromaWidth)
        let offsets = UnsafeMutablePointer<Int32>.allocate(capacity: 3 * chromaWidth)
        defer { yRow.deallocate(); offsets.deallocate() }
        let (cbRow, crRow) = (yRow + width, yRow + width + chromaWidth)
        let xShift = maxH - 1
        for y in 0 ..< height {
            samples(planes.values[0] + y * planes.blocksPerRow[0], count: width, quantiser: quantisers[0], into: yRow)
            if y % maxV == 0 {
                let chromaRow = y / maxV
                samples(planes.values[1] + chromaRow * planes.blocksPerRow[1], count: chromaWidth, quantiser: quantisers[1], into: cbRow)
                samples(planes.values[2] + chromaRow * planes.blocksPerRow[2], count: chromaWidth, quantiser: quantisers[2], into: crRow)
                for x in 0 ..< chromaWidth {
                    let b = Int32(cbRow[x]) &- 128, r = Int32(crRow[x]) &- 128
                    offsets[3 * x] = (91881 &* r &+ 32768) &>> 16
                    offsets[3 * x + 1] = (-22554 &* b &- 46802 &* r &+ 32768) &>> 16
                    offsets[3 * x + 2] = (116130 &* b &+ 32768) &>> 16
                }
            }
            let row = destination + y * bytesPerRow
            for x in 0 ..< width {
                let l = Int32(yRow[x]), chroma = offsets + 3 &* (x &>> xShift), pixel = row + 3 &* x
                pixel[0] = clamped(l &+ chroma[0])
                pixel[1] = clamped(l &+ chroma[1])
                pixel[2] = clamped(l &+ chroma[2])
            }
        }
    }

    /// libjpeg's 1×1 IDCT of each DC: times its quantiser, descaled by 8 with rounding, plus 128, clamped.
    private static func samples(_ dcs: UnsafePointer<Int16>, count: Int, quantiser: Int, into output: UnsafeMutablePointer<UInt8>) {
        let q = Int32(quantiser)
        for x in 0 ..< count {
            output[x] = clamped((Int32(dcs[x]) &* q &+ 4) &>> 3 &+ 128)
        }
    }

    @inline(__always) private static func clamped(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), 255))
    }
}

extension JPEGDCDecoder.Headers {
    /// The scan's MCUs per row and MCU rows (an interleaved scan's MCU spans every component's sampling
    /// factors; a single component's MCU is one of its 8×8 blocks), and MCUs per restart interval (all of
    /// them without restart markers).
    var mcuLayout: (perRow: Int, rows: Int, interval: Int) {
        let perRow: Int, rows: Int
        if scanOrder.count > 1 {
            perRow = (width + 8 * maxHorizontal - 1) / (8 * maxHorizontal)
            rows = (height + 8 * maxVertical - 1) / (8 * maxVertical)
        } else {
            let component = components[0]
            let componentWidth = (width * component.horizontal + maxHorizontal - 1) / maxHorizontal
            let componentHeight = (height * component.vertical + maxVertical - 1) / maxVertical
            (perRow, rows) = ((componentWidth + 7) / 8, (componentHeight + 7) / 8)
        }
        return (perRow, rows, restartInterval > 0 ? restartInterval : perRow * rows)
    }

    /// The blocks of one MCU in scan order, each with its component, its place in the scan and its offset
    /// in the MCU (an interleaved scan's MCU holds each component's sampling factors of blocks; a single
    /// component's, one block); nil past JPEG's limit of 10 blocks per MCU.
    var mcuBlocks: [JPEGDCDecoder.MCUBlock]? {
        let interleaved = scanOrder.count > 1
        var blocks: [JPEGDCDecoder.MCUBlock] = []
        for (scanIndex, index) in scanOrder.enumerated() {
            let component = components[index]
            let (horizontal, vertical) = interleaved ? (component.horizontal, component.vertical) : (1, 1)
            for dy in 0 ..< vertical {
                for dx in 0 ..< horizontal {
                    blocks.append(.init(component: index, scanIndex: scanIndex, dx: dx, dy: dy, horizontal: horizontal, vertical: vertical))
                }
            }
        }
        return blocks.count <= 10 ? blocks : nil
    }
}
