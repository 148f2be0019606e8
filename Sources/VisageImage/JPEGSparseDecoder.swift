import Foundation

/// A baseline JPEG's full-resolution pixels at chosen rows and columns only, bit-identical to libjpeg's
/// full decode (`JPEGCodec.decode`: libjpeg-turbo's accurate integer IDCT, smooth upsampling and
/// YCbCr→RGB tables), without ever holding the whole picture.
///
/// Every block's Huffman data is read anyway, since each block's length is known only by decoding it. A
/// block that holds a wanted sample is decoded whole, its coefficients dequantised and transformed as
/// libjpeg-turbo's `jpeg_idct_islow` (jidctint.c; its SIMD versions give the same samples): the column pass
/// in full, the row pass only for the wanted rows. Other blocks keep only their DC term for the prediction,
/// their AC symbols skipped several at a time (``JPEGDCDecoder``'s skip tables). Chroma samples are
/// kept wherever libjpeg's smooth upsampling reads them for a wanted pixel: for 4:2:2 and 4:2:0 the
/// nearer and the farther chroma column (jdsample.c's `h2v1_fancy_upsample`, `h2v2_fancy_upsample`: 3/4
/// and 1/4 with its alternating rounding), for 4:2:0 also the nearer and farther chroma row, with its
/// edges: the first and last column and row repeated (jdmainct.c's context rows). Colour is jdcolor.c's
/// fixed-point conversion.
///
/// It reads what ``JPEGDCDecoder`` reads (one sequential Huffman scan of 8-bit samples; gray, or YCbCr
/// with the luma at the largest sampling factors and the chroma at 1×1), less 4:4:0, and only pictures
/// whose chroma is at least 3 samples wide (libjpeg upsamples narrower ones without smoothing). Anything
/// else, or data that is not consistent, gives nil, and the caller decodes with libjpeg, which reports or
/// tolerates the file's faults as it always does.
///
/// Memory: the wanted samples of each component and one block of coefficients, plus a copy of the
/// entropy-coded data (as ``JPEGDCDecoder``).
package enum JPEGSparseDecoder {
    /// JPEG's zigzag order: the natural (row-major) position of the `k`-th coefficient, with libjpeg's
    /// 16 extra entries that send a corrupt run past the block's end to its last coefficient.
    package static let naturalOrder: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55,
        62, 63,
    ] + Array(repeating: 63, count: 16)

    /// The samples of the pixels at `rows` × `columns` of the stored picture (both ascending, without
    /// repeats, inside the picture), row by row: 1 byte a pixel for gray, 3 (RGB) otherwise. Nil when the file
    /// is not one this decoder reads or its data is not consistent.
    package static func pixels(_ bytes: UnsafeRawBufferPointer, rows: [Int], columns: [Int]) -> SparsePixels? {
        guard let headers = JPEGDCDecoder.headers(bytes), !rows.isEmpty, !columns.isEmpty else { return nil }
        let (width, height) = (headers.width, headers.height)
        let maxH = headers.maxHorizontal, maxV = headers.maxVertical
        let color = headers.components.count == 3
        if color {
            guard maxV <= maxH, (width + maxH - 1) / maxH > 2 else { return nil }
        }
        guard headers.components.allSatisfy({ headers.quantTables[$0.quantTable] != nil }),
              zip(rows, rows.dropFirst()).allSatisfy({ $0 < $1 }), zip(columns, columns.dropFirst()).allSatisfy({ $0 < $1 }),
              rows.first! >= 0, rows.last! < height, columns.first! >= 0, columns.last! < width
        else { return nil }
        // Each component's wanted sample rows and columns on its own grid.
        var wanted: [(rows: [Int], columns: [Int], width: Int, height: Int)] = []
        for component in headers.components {
            let componentWidth = (width * component.horizontal + maxH - 1) / maxH
            let componentHeight = (height * component.vertical + maxV - 1) / maxV
            let across = component.horizontal == maxH ? columns : Self.smoothingNeighbours(columns, limit: componentWidth)
            let down = component.vertical == maxV ? rows : Self.smoothingNeighbours(rows, limit: componentHeight)
            wanted.append((down, across, componentWidth, componentHeight))
        }
        guard let (data, starts) = JPEGDCDecoder.intervals(bytes, from: headers.scanDataOffset) else { return nil }
        defer { data.deallocate() }
        let grids = wanted.map { SampleGrid(rows: $0.rows, columns: $0.columns, width: $0.width, height: $0.height) }
        guard decode(headers: headers, grids: grids, data: UnsafeRawBufferPointer(data), starts: starts) else { return nil }
        if !color {
            return SparsePixels(rows: rows, columns: columns, channels: 1, samples: grids[0].samples)
        }
        return SparsePixels(
            rows: rows, columns: columns, channels: 3,
            samples: converted(luma: grids[0], cb: grids[1], cr: grids[2], rows: rows, columns: columns, maxH: maxH, maxV: maxV))
    }

    /// The chroma samples libjpeg's 2× smooth upsampling reads for output samples `positions`: for output
    /// 2i the chroma samples i and i − 1, for 2i + 1 the samples i and i + 1, clamped to `0..<limit`.
    static func smoothingNeighbours(_ positions: [Int], limit: Int) -> [Int] {
        var wanted = Set<Int>()
        for position in positions {
            let nearer = position >> 1
            wanted.insert(min(nearer, limit - 1))
            wanted.insert(min(max(position & 1 == 0 ? nearer - 1 : nearer + 1, 0), limit - 1))
        }
        return wanted.sorted()
    }

    /// One component's wanted samples: their rows and columns, where each sits in `samples`, and which of
    /// the component's blocks hold any.
    final class SampleGrid {
        let rows: [Int]
        let columns: [Int]
        /// Per component row and column: its index in `rows` and `columns`, or −1.
        let rowIndex: [Int32]
        let columnIndex: [Int32]
        /// Per block row: the wanted (row in block, index) pairs; per block column likewise.
        let blockRows: [[(Int, Int)]]
        let blockColumns: [[(Int, Int)]]
        var samples: [UInt8]

        init(rows: [Int], columns: [Int], width: Int, height: Int) {
            self.rows = rows
            self.columns = columns
            var rowIndex = [Int32](repeating: -1, count: height), columnIndex = [Int32](repeating: -1, count: width)
            var blockRows = [[(Int, Int)]](repeating: [], count: (height + 7) / 8)
            var blockColumns = [[(Int, Int)]](repeating: [], count: (width + 7) / 8)
            for (index, row) in rows.enumerated() {
                rowIndex[row] = Int32(index)
                blockRows[row >> 3].append((row & 7, index))
            }
            for (index, column) in columns.enumerated() {
                columnIndex[column] = Int32(index)
                blockColumns[column >> 3].append((column & 7, index))
            }
            (self.rowIndex, self.columnIndex, self.blockRows, self.blockColumns) = (rowIndex, columnIndex, blockRows, blockColumns)
            samples = [UInt8](repeating: 0, count: rows.count * columns.count)
        }

        @inline(__always) func sample(row: Int, column: Int) -> Int32 {
            Int32(samples[Int(rowIndex[row]) * columns.count + Int(columnIndex[column])])
        }
    }

    /// libjpeg's smooth upsampling and YCbCr→RGB conversion of the wanted pixels.
    // swiftlint:disable:next function_parameter_count
    static func converted(luma: SampleGrid, cb: SampleGrid, cr: SampleGrid, rows: [Int], columns: [Int], maxH: Int, maxV: Int) -> [UInt8] {
        let chromaWidth = cb.rowIndex.isEmpty ? 0 : cb.columnIndex.count, chromaHeight = cb.rowIndex.count
        var output = [UInt8](repeating: 0, count: rows.count * columns.count * 3)
        // Per wanted column: the nearer and farther chroma column and the rounding (h2v1: +1/+2, h2v2: +8/+7).
        let across = columns.map { x -> (Int, Int, Bool) in
            guard maxH == 2 else { return (x, x, true) }
            let nearer = x >> 1, even = x & 1 == 0
            return (nearer, min(max(even ? nearer - 1 : nearer + 1, 0), chromaWidth - 1), even)
        }
        @inline(__always) func chroma(_ grid: SampleGrid, y: Int, column: (Int, Int, Bool)) -> Int32 {
            switch (maxH, maxV) {
            case (2, 2):
                let nearerRow = y >> 1
                let fartherRow = min(max(y & 1 == 0 ? nearerRow - 1 : nearerRow + 1, 0), chromaHeight - 1)
                let nearerSum = 3 &* grid.sample(row: nearerRow, column: column.0) &+ grid.sample(row: fartherRow, column: column.0)
                let fartherSum = 3 &* grid.sample(row: nearerRow, column: column.1) &+ grid.sample(row: fartherRow, column: column.1)
                return (3 &* nearerSum &+ fartherSum &+ (column.2 ? 8 : 7)) &>> 4
            case (2, 1):
                return (3 &* grid.sample(row: y, column: column.0) &+ grid.sample(row: y, column: column.1) &+ (column.2 ? 1 : 2)) &>> 2
            default:
                return grid.sample(row: y, column: column.0)
            }
        }
        var at = 0
        for (rowNumber, y) in rows.enumerated() {
            for (columnNumber, column) in across.enumerated() {
                let l = Int32(luma.samples[rowNumber * columns.count + columnNumber])
                let b = chroma(cb, y: y, column: column) &- 128, r = chroma(cr, y: y, column: column) &- 128
                output[at] = clamped(l &+ ((91881 &* r &+ 32768) &>> 16))
                output[at + 1] = clamped(l &+ ((-22554 &* b &- 46802 &* r &+ 32768) &>> 16))
                output[at + 2] = clamped(l &+ ((116130 &* b &+ 32768) &>> 16))
                at += 3
            }
        }
        return output
    }

    @inline(__always) static func clamped(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), 255))
    }
}

/// Pixels of a picture at a grid of rows and columns (``JPEGSparseDecoder``).
package struct SparsePixels: Sendable, Equatable {
    package var rows: [Int]
    package var columns: [Int]
    /// 1 (gray) or 3 (RGB).
    package var channels: Int
    /// Row by row, `columns.count × channels` bytes a row.
    package var samples: [UInt8]
}

extension JPEGSparseDecoder {
    /// One block of an MCU: its component (frame index), prediction slot, and place in the MCU.
    private struct MCUBlock {
        var component: Int
        var slot: Int
        var dx: Int
        var dy: Int
        var horizontal: Int
        var vertical: Int
    }

    /// Decodes the scan, filling each grid's samples; false on any inconsistency.
    // swiftlint:disable:next function_body_length cyclomatic_complexity
    static func decode(headers: JPEGDCDecoder.Headers, grids: [SampleGrid], data: UnsafeRawBufferPointer, starts: [Int]) -> Bool {
        guard let base = data.baseAddress else { return false }
        let interleaved = headers.scanOrder.count > 1
        let maxH = headers.maxHorizontal, maxV = headers.maxVertical
        let mcusPerRow: Int, mcuRows: Int
        if interleaved {
            mcusPerRow = (headers.width + 8 * maxH - 1) / (8 * maxH)
            mcuRows = (headers.height + 8 * maxV - 1) / (8 * maxV)
        } else {
            let component = headers.components[0]
            let width = (headers.width * component.horizontal + maxH - 1) / maxH
            let height = (headers.height * component.vertical + maxV - 1) / maxV
            (mcusPerRow, mcuRows) = ((width + 7) / 8, (height + 7) / 8)
        }
        let totalMCUs = mcusPerRow * mcuRows
        let interval = headers.restartInterval > 0 ? headers.restartInterval : totalMCUs
        guard starts.count - 1 == (totalMCUs + interval - 1) / interval else { return false }
        var blocks: [MCUBlock] = []
        for (slot, index) in headers.scanOrder.enumerated() {
            let component = headers.components[index]
            let (horizontal, vertical) = interleaved ? (component.horizontal, component.vertical) : (1, 1)
            for dy in 0 ..< vertical {
                for dx in 0 ..< horizontal {
                    blocks.append(MCUBlock(component: index, slot: slot, dx: dx, dy: dy, horizontal: horizontal, vertical: vertical))
                }
            }
        }
        guard blocks.count <= 10 else { return false }
        let tables = JPEGDCDecoder.ScanTables(headers: headers)
        let acBits = JPEGDCDecoder.acLookupBits, dcBits = JPEGDCDecoder.dcLookupBits
        let acShift = UInt64(64 - acBits), dcShift = UInt64(64 - dcBits)
        let acLookups = (0 ..< 4).map { slot in tables.acCodes[slot].map { $0.lookup(bits: acBits) } ?? [] }
        let components = headers.components
        let quantTables = components.map { headers.quantTables[$0.quantTable]! }
        let natural = naturalOrder

        return natural.withUnsafeBufferPointer { natural in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 64) { coefficients in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 64 + 4) { scratch in
                    let workspace = scratch.baseAddress!, predictions = workspace + 64
                    for index in 0 ..< starts.count - 1 {
                        for slot in 0 ..< 4 { predictions[slot] = 0 }
                        var pointer = base + starts[index]
                        let limitBits = starts[index + 1] * 8
                        var buffer: UInt64 = 0, available = 0
                        let firstMCU = index * interval, lastMCU = min(firstMCU + interval, totalMCUs)
                        for mcu in firstMCU ..< lastMCU {
                            let row = mcu / mcusPerRow, column = mcu - row * mcusPerRow
                            for block in blocks {
                                let component = components[block.component]
                                let dcCodes = tables.dcCodes[component.dcTable]!, acCodes = tables.acCodes[component.acTable]!
                                buffer |= UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)) &>> UInt64(available)
                                pointer += (63 &- available) &>> 3
                                available |= 56
                                // DC: as ``JPEGDCDecoder``.
                                let entry = tables.dcLookups[component.dcTable]![Int(buffer &>> dcShift)]
                                var length = Int(entry &>> 8), size = Int(entry & 0xFF)
                                if entry == 0 {
                                    guard let (long, symbol) = dcCodes.decode(buffer, longerThan: dcBits) else { return false }
                                    (length, size) = (long, Int(symbol))
                                }
                                guard size <= 11 else { return false }
                                let bits = Int(((buffer &<< UInt64(length)) &>> 1) &>> UInt64(63 &- size))
                                let difference = bits &- (bits < ((1 &<< size) &>> 1) ? (1 &<< size) &- 1 : 0)
                                buffer &<<= UInt64(length &+ size)
                                available &-= length &+ size
                                predictions[block.slot] &+= difference

                                let grid = grids[block.component]
                                let blockRow = interleaved ? row * block.vertical + block.dy : row
                                let blockColumn = interleaved ? column * block.horizontal + block.dx : column
                                let wanted = blockRow < grid.blockRows.count && blockColumn < grid.blockColumns.count
                                    && !grid.blockRows[blockRow].isEmpty && !grid.blockColumns[blockColumn].isEmpty
                                if !wanted {
                                    guard skipAC(
                                        buffer: &buffer, available: &available, pointer: &pointer,
                                        table: tables.acTables[component.acTable]!, codes: acCodes, shift: acShift)
                                    else { return false }
                                    continue
                                }
                                // AC: every coefficient, as libjpeg's decode_mcu.
                                coefficients.initialize(repeating: 0)
                                coefficients[0] = Int32(Int16(truncatingIfNeeded: predictions[block.slot]))
                                let lookup = acLookups[component.acTable]
                                var k = 1
                                while k < 64 {
                                    buffer |= UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)) &>> UInt64(available)
                                    pointer += (63 &- available) &>> 3
                                    available |= 56
                                    let entry = lookup[Int(buffer &>> acShift)]
                                    var length = Int(entry &>> 8), symbol = Int(entry & 0xFF)
                                    if entry == 0 {
                                        guard let (long, value) = acCodes.decode(buffer, longerThan: acBits) else { return false }
                                        (length, symbol) = (long, Int(value))
                                    }
                                    let run = symbol &>> 4, size = symbol & 15
                                    buffer &<<= UInt64(length)
                                    available &-= length
                                    if size != 0 {
                                        k &+= run
                                        let bits = Int(buffer &>> UInt64(64 &- size))
                                        let value = bits < 1 &<< (size &- 1) ? bits &- (1 &<< size) &+ 1 : bits
                                        buffer &<<= UInt64(size)
                                        available &-= size
                                        coefficients[natural[k]] = Int32(Int16(truncatingIfNeeded: value))
                                        k &+= 1
                                    } else {
                                        if run != 15 { break }
                                        k &+= 16
                                    }
                                }
                                inverseDCT(
                                    coefficients.baseAddress!, quant: quantTables[block.component], workspace: workspace,
                                    rows: grid.blockRows[blockRow], columns: grid.blockColumns[blockColumn], grid: grid)
                            }
                            if (pointer - base) &* 8 &- available > limitBits { return false }
                        }
                        let consumed = (pointer - base) &* 8 &- available
                        guard consumed <= limitBits, consumed > limitBits &- 8 else { return false }
                    }
                    return true
                }
            }
        }
    }

    /// Steps over a block's AC symbols with ``JPEGDCDecoder``'s skip table; false on a bad code.
    @inline(__always)
    // swiftlint:disable:next function_parameter_count
    private static func skipAC(
        buffer: inout UInt64, available: inout Int, pointer: inout UnsafeRawPointer, table: UnsafeMutablePointer<UInt32>,
        codes: JPEGDCDecoder.HuffmanCodes, shift: UInt64
    ) -> Bool {
        var left = 63
        blockLoop: while true {
            buffer |= UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)) &>> UInt64(available)
            pointer += (63 &- available) &>> 3
            available |= 56
            var step: UInt32 = 0
            for _ in 0 ..< 4 {
                step = table[Int(buffer &>> shift)]
                let need = Int(step &>> 5) & 127
                guard need <= left else { break }
                let used = Int(step & 31)
                buffer &<<= UInt64(used)
                available &-= used
                left &-= need
                if left == 0 || step & 0x1000 != 0 { break blockLoop }
                step = 0
            }
            if step == 0 { continue }
            buffer |= UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)) &>> UInt64(available)
            pointer += (63 &- available) &>> 3
            available |= 56
            var length = Int(step &>> 24), symbol = Int((step &>> 16) & 0xFF)
            if step &>> 16 == 0 {
                guard let (long, value) = codes.decode(buffer, longerThan: JPEGDCDecoder.acLookupBits) else { return false }
                (length, symbol) = (long, Int(value))
            }
            let run = symbol &>> 4, size = symbol & 15
            buffer &<<= UInt64(length &+ size)
            available &-= length &+ size
            if size == 0, run != 15 { break }
            left &-= size == 0 ? 16 : run &+ 1
            if left <= 0 { break }
        }
        return true
    }

    /// libjpeg-turbo's `jpeg_idct_islow` (jidctint.c: 13-bit constants, 2 extra bits after the column
    /// pass) of one block, the row pass only for the wanted `rows`, written at the wanted `columns`.
    // swiftlint:disable:next function_parameter_count
    static func inverseDCT(
        _ coefficients: UnsafeMutablePointer<Int32>, quant: [Int32], workspace: UnsafeMutablePointer<Int>, rows: [(Int, Int)],
        columns: [(Int, Int)], grid: SampleGrid
    ) {
        for c in 0 ..< 8 {
            let z = (0 ..< 8).map { Int(coefficients[8 * $0 + c]) * Int(quant[8 * $0 + c]) }
            if z[1] == 0, z[2] == 0, z[3] == 0, z[4] == 0, z[5] == 0, z[6] == 0, z[7] == 0 {
                for r in 0 ..< 8 { workspace[8 * r + c] = z[0] << 2 }
                continue
            }
            let out = idct8(z[0], z[1], z[2], z[3], z[4], z[5], z[6], z[7])
            for r in 0 ..< 8 { workspace[8 * r + c] = (out[r] + (1 << 10)) >> 11 }
        }
        let stride = grid.columns.count
        grid.samples.withUnsafeMutableBufferPointer { samples in
            for (r, index) in rows {
                let w = workspace + 8 * r
                var values = [Int](repeating: 0, count: 8)
                if w[1] == 0, w[2] == 0, w[3] == 0, w[4] == 0, w[5] == 0, w[6] == 0, w[7] == 0 {
                    let value = (w[0] + (1 << 4)) >> 5
                    for c in 0 ..< 8 { values[c] = value }
                } else {
                    let out = idct8(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
                    for c in 0 ..< 8 { values[c] = (out[c] + (1 << 17)) >> 18 }
                }
                for (c, column) in columns {
                    samples[index * stride + column] = UInt8(truncatingIfNeeded: min(max(values[c] + 128, 0), 255))
                }
            }
        }
    }

    /// One 8-point pass of jidctint.c, before its descaling: outputs 0…7.
    @inline(__always)
    // swiftlint:disable:next function_parameter_count
    static func idct8(_ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int, _ i4: Int, _ i5: Int, _ i6: Int, _ i7: Int) -> [Int] {
        // Even part.
        var z1 = (i2 + i6) * 4433
        let tmp2e = z1 + i6 * -15137, tmp3e = z1 + i2 * 6270
        let tmp0e = (i0 + i4) << 13, tmp1e = (i0 - i4) << 13
        let tmp10 = tmp0e + tmp3e, tmp13 = tmp0e - tmp3e, tmp11 = tmp1e + tmp2e, tmp12 = tmp1e - tmp2e
        // Odd part.
        var tmp0 = i7, tmp1 = i5, tmp2 = i3, tmp3 = i1
        z1 = tmp0 + tmp3
        var z2 = tmp1 + tmp2, z3 = tmp0 + tmp2, z4 = tmp1 + tmp3
        let z5 = (z3 + z4) * 9633
        tmp0 *= 2446
        tmp1 *= 16819
        tmp2 *= 25172
        tmp3 *= 12299
        z1 *= -7373
        z2 *= -20995
        z3 *= -16069
        z4 *= -3196
        z3 += z5
        z4 += z5
        tmp0 += z1 + z3
        tmp1 += z2 + z4
        tmp2 += z2 + z3
        tmp3 += z1 + z4
        return [tmp10 + tmp3, tmp11 + tmp2, tmp12 + tmp1, tmp13 + tmp0, tmp13 - tmp0, tmp12 - tmp1, tmp11 - tmp2, tmp10 - tmp3]
    }
}
