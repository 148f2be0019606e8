import Foundation

/// A baseline JPEG's full-resolution pixels at chosen rows and columns only, bit-identical to libjpeg's
/// full decode (`JPEGCodec.decode`: libjpeg-turbo's accurate integer IDCT, smooth upsampling and
/// YCbCr→RGB tables), without ever holding the whole picture.
///
/// Every block's Huffman data is read anyway, since each block's length is known only by decoding it. A
/// block that holds a wanted sample is decoded whole (each symbol's code and extra bits in one lookup of
/// ``JPEGDCDecoder/HuffmanCodes/valueTable(bits:)`` where they fit), its coefficients dequantised and
/// transformed as libjpeg-turbo's `jpeg_idct_islow` (jidctint.c; its SIMD versions give the same samples):
/// the column pass at the wanted rows, summed as the coefficients are read, then the row pass at the wanted
/// columns. Other blocks keep only their DC term for the prediction, their AC symbols skipped several at a
/// time (``JPEGDCDecoder``'s skip tables). Chroma samples are
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
/// Memory: the wanted samples of each component and the column pass's sums for one block, plus a copy of
/// the entropy-coded data (as ``JPEGDCDecoder``) and the lookup tables (about 40 KB).
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
        /// The same pairs flat, for the decoding loop: block row `r`'s pairs are `rowPairs[2 · rowStarts[r] ..< 2 · rowStarts[r + 1]]`
        /// (row in block, index), likewise for columns (freed by `deinit`).
        let rowStarts: UnsafeMutablePointer<Int32>
        let rowPairs: UnsafeMutablePointer<Int32>
        let columnStarts: UnsafeMutablePointer<Int32>
        let columnPairs: UnsafeMutablePointer<Int32>
        /// Per pair, in the same order, the row of ``islowMatrix`` for its place in the block (8 entries): what
        /// each input of a pass adds to that output (freed by `deinit`).
        let rowMatrices: UnsafeMutablePointer<Int>
        let columnMatrices: UnsafeMutablePointer<Int>
        /// `rows.count × columns.count` bytes (freed by `deinit`).
        let storage: UnsafeMutablePointer<UInt8>
        var samples: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: rows.count * columns.count)) }

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
            (rowStarts, rowPairs) = Self.flattened(blockRows)
            (columnStarts, columnPairs) = Self.flattened(blockColumns)
            rowMatrices = Self.matrixRows(blockRows)
            columnMatrices = Self.matrixRows(blockColumns)
            storage = .allocate(capacity: max(1, rows.count * columns.count))
            storage.initialize(repeating: 0, count: max(1, rows.count * columns.count))
        }

        private static func flattened(_ lists: [[(Int, Int)]]) -> (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) {
            let starts = UnsafeMutablePointer<Int32>.allocate(capacity: lists.count + 1)
            let total = lists.reduce(0) { $0 + $1.count }
            let pairs = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, 2 * total))
            var at = 0
            for (index, list) in lists.enumerated() {
                starts[index] = Int32(at)
                for (within, position) in list {
                    pairs[2 * at] = Int32(within)
                    pairs[2 * at + 1] = Int32(position)
                    at += 1
                }
            }
            starts[lists.count] = Int32(at)
            return (starts, pairs)
        }

        private static func matrixRows(_ lists: [[(Int, Int)]]) -> UnsafeMutablePointer<Int> {
            let places = lists.flatMap { $0.map(\.0) }
            // Two rows of zeros past the end: the loop's three-row case reads them for a block with fewer.
            let rows = UnsafeMutablePointer<Int>.allocate(capacity: 8 * places.count + 16)
            rows.initialize(repeating: 0, count: 8 * places.count + 16)
            for (at, place) in places.enumerated() {
                for input in 0 ..< 8 { rows[8 * at + input] = JPEGSparseDecoder.islowMatrix[8 * place + input] }
            }
            return rows
        }

        deinit {
            rowMatrices.deallocate()
            columnMatrices.deallocate()
            storage.deallocate()
            rowStarts.deallocate()
            rowPairs.deallocate()
            columnStarts.deallocate()
            columnPairs.deallocate()
        }

        @inline(__always) func sample(row: Int, column: Int) -> Int32 {
            Int32(storage[Int(rowIndex[row]) &* columns.count &+ Int(columnIndex[column])])
        }
    }

    /// libjpeg's smooth upsampling and YCbCr→RGB conversion of the wanted pixels. Where each wanted pixel's
    /// chroma samples sit in the grids is worked out once per column and once per row, so the loop over
    /// the pixels only loads and sums.
    // swiftlint:disable:next function_parameter_count
    static func converted(luma: SampleGrid, cb: SampleGrid, cr: SampleGrid, rows: [Int], columns: [Int], maxH: Int, maxV: Int) -> [UInt8] {
        let chromaWidth = cb.columnIndex.count, chromaHeight = cb.rowIndex.count
        let count = columns.count
        // Per wanted column: the nearer and the farther chroma sample's place in a grid row (h2v1 and h2v2
        // weigh them 3:1; without horizontal upsampling both are the one sample), and the rounding
        // (h2v1: +1 even, +2 odd; h2v2: +8 even, +7 odd).
        var nearer = [Int](repeating: 0, count: count), farther = [Int](repeating: 0, count: count)
        var bias = [Int32](repeating: 0, count: count)
        for (j, x) in columns.enumerated() {
            let (near, far, even): (Int, Int, Bool)
            if maxH == 2 {
                let n = x >> 1
                (near, far, even) = (n, min(max(x & 1 == 0 ? n - 1 : n + 1, 0), chromaWidth - 1), x & 1 == 0)
            } else {
                (near, far, even) = (x, x, true)
            }
            nearer[j] = Int(cb.columnIndex[near])
            farther[j] = Int(cb.columnIndex[far])
            bias[j] = maxV == 2 ? (even ? 8 : 7) : (even ? 1 : 2)
        }
        let stride = cb.columns.count
        var output = [UInt8](repeating: 0, count: rows.count * count * 3)
        output.withUnsafeMutableBufferPointer { output in
            nearer.withUnsafeBufferPointer { nearer in
                farther.withUnsafeBufferPointer { farther in
                    bias.withUnsafeBufferPointer { bias in
                        var at = 0
                        for (rowNumber, y) in rows.enumerated() {
                            // The chroma rows this row reads: with vertical upsampling (h2v2) the nearer and the
                            // farther, 3:1; else the one at y.
                            let nearRow: Int, farRow: Int
                            if maxV == 2 {
                                let n = y >> 1
                                (nearRow, farRow) = (n, min(max(y & 1 == 0 ? n - 1 : n + 1, 0), chromaHeight - 1))
                            } else {
                                (nearRow, farRow) = (y, y)
                            }
                            let lumaRow = luma.storage + rowNumber * count
                            let cbNear = cb.storage + Int(cb.rowIndex[nearRow]) * stride, cbFar = cb.storage + Int(cb.rowIndex[farRow]) * stride
                            let crNear = cr.storage + Int(cr.rowIndex[nearRow]) * stride, crFar = cr.storage + Int(cr.rowIndex[farRow]) * stride
                            @inline(__always) func sample(_ near: UnsafeMutablePointer<UInt8>, _ far: UnsafeMutablePointer<UInt8>, _ j: Int) -> Int32 {
                                let n = nearer[j], f = farther[j]
                                switch (maxH, maxV) {
                                case (2, 2):
                                    let nearSum = 3 &* Int32(near[n]) &+ Int32(far[n]), farSum = 3 &* Int32(near[f]) &+ Int32(far[f])
                                    return (3 &* nearSum &+ farSum &+ bias[j]) &>> 4
                                case (2, 1):
                                    return (3 &* Int32(near[n]) &+ Int32(near[f]) &+ bias[j]) &>> 2
                                default:
                                    return Int32(near[n])
                                }
                            }
                            for j in 0 ..< count {
                                let l = Int32(lumaRow[j])
                                let b = sample(cbNear, cbFar, j) &- 128, r = sample(crNear, crFar, j) &- 128
                                output[at] = clamped(l &+ ((91881 &* r &+ 32768) &>> 16))
                                output[at + 1] = clamped(l &+ ((-22554 &* b &- 46802 &* r &+ 32768) &>> 16))
                                output[at + 2] = clamped(l &+ ((116130 &* b &+ 32768) &>> 16))
                                at += 3
                            }
                        }
                    }
                }
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

extension SparsePixels {
    /// A decoded image's stored pixels at the same grid, laid out as the sparse reader gives them:
    /// what its tests and fuzz target hold ``JPEGSparseDecoder/pixels(_:rows:columns:)`` to.
    package init(sampling image: Image, rows: [Int], columns: [Int]) {
        let packed = image.packedPixels, channels = image.pixelFormat.bytesPerPixel
        var samples: [UInt8] = []
        samples.reserveCapacity(rows.count * columns.count * channels)
        for y in rows {
            for x in columns {
                let at = (y * image.width + x) * channels
                samples += packed[at ..< at + channels]
            }
        }
        self.init(rows: rows, columns: columns, channels: channels, samples: samples)
    }
}

extension JPEGSparseDecoder {
    /// What the loop reads per block of an MCU: its tables, its prediction slot, and which of its
    /// component's blocks are wanted.
    private struct BlockPlan {
        var dcLookup: UnsafePointer<UInt16>
        var acSkip: UnsafePointer<UInt16>
        var acLookup: UnsafePointer<UInt16>
        var acValues: UnsafePointer<Int32>
        /// The component's quantiser per zigzag index k < 80 (past 63, libjpeg's extra entries: the last one's).
        var zigzagQuant: UnsafePointer<Int>
        var dcCodes: UnsafePointer<JPEGDCDecoder.HuffmanCodes>
        var acCodes: UnsafePointer<JPEGDCDecoder.HuffmanCodes>
        var slot: Int
        var wantedRows: UnsafePointer<Bool>
        var wantedColumns: UnsafePointer<Bool>
        var blockRows: Int
        var blockColumns: Int
        /// Block row = MCU row × rowStep + rowOffset; likewise for columns.
        var rowStep: Int
        var rowOffset: Int
        var columnStep: Int
        var columnOffset: Int
        /// The component's wanted rows and columns per block (``SampleGrid``), its samples and their row length.
        var rowStarts: UnsafePointer<Int32>
        var rowPairs: UnsafePointer<Int32>
        var columnStarts: UnsafePointer<Int32>
        var columnPairs: UnsafePointer<Int32>
        var rowMatrices: UnsafePointer<Int>
        var columnMatrices: UnsafePointer<Int>
        var samples: UnsafeMutablePointer<UInt8>
        var stride: Int
    }

    /// Bits of data that index the wanted blocks' value tables (``JPEGDCDecoder/HuffmanCodes/valueTable(bits:)``):
    /// four bytes an entry, so 4 KB a table, which leaves the level-1 cache to the skip tables (the other
    /// 85 % of the blocks); a symbol whose code and extra bits take more is read on its own.
    static let valueLookupBits = 10

    /// Decodes the scan, filling each grid's samples; false on any inconsistency.
    // swiftlint:disable:next function_body_length cyclomatic_complexity
    static func decode(headers: JPEGDCDecoder.Headers, grids: [SampleGrid], data: UnsafeRawBufferPointer, starts: [Int]) -> Bool {
        guard let base = data.baseAddress else { return false }
        let interleaved = headers.scanOrder.count > 1
        let (mcusPerRow, mcuRows, interval) = headers.mcuLayout
        let totalMCUs = mcusPerRow * mcuRows
        guard starts.count - 1 == (totalMCUs + interval - 1) / interval else { return false }
        guard let blocks = headers.mcuBlocks else { return false }
        let tables = JPEGDCDecoder.ScanTables(headers: headers)
        let acBits = JPEGDCDecoder.acLookupBits, dcBits = JPEGDCDecoder.dcLookupBits
        let acShift = UInt64(64 - acBits), dcShift = UInt64(64 - dcBits)
        let components = headers.components
        // Memory of its own for what the loop reads per block, freed on return.
        var owned: [UnsafeMutableRawPointer] = []
        defer { owned.forEach { $0.deallocate() } }
        func pinned<Element>(_ values: [Element]) -> UnsafePointer<Element> {
            let pointer = UnsafeMutablePointer<Element>.allocate(capacity: max(values.count, 1))
            pointer.initialize(from: values, count: values.count)
            owned.append(UnsafeMutableRawPointer(pointer))
            return UnsafePointer(pointer)
        }
        let zigzagQuants = components.map { component in
            let table = headers.quantTables[component.quantTable]!
            return pinned(naturalOrder.map { Int(table[$0]) })
        }
        let valueBits = valueLookupBits, valueShift = UInt64(64 - valueBits)
        let acValues = (0 ..< 4).map { slot in tables.acCodes[slot].map { pinned($0.valueTable(bits: valueBits)) } }
        let wantedRows = grids.map { grid in pinned(grid.blockRows.map { !$0.isEmpty }) }
        let wantedColumns = grids.map { grid in pinned(grid.blockColumns.map { !$0.isEmpty }) }
        let plans = blocks.map { block in
            let component = components[block.component], grid = grids[block.component]
            return BlockPlan(
                dcLookup: UnsafePointer(tables.dcLookups[component.dcTable]!), acSkip: UnsafePointer(tables.acTables[component.acTable]!),
                acLookup: UnsafePointer(tables.acSingles[component.acTable]!), acValues: acValues[component.acTable]!, zigzagQuant: zigzagQuants[block.component],
                dcCodes: UnsafePointer(tables.dcCodePointers[component.dcTable]!),
                acCodes: UnsafePointer(tables.acCodePointers[component.acTable]!), slot: block.scanIndex,
                wantedRows: wantedRows[block.component], wantedColumns: wantedColumns[block.component],
                blockRows: grid.blockRows.count, blockColumns: grid.blockColumns.count,
                rowStep: interleaved ? block.vertical : 1, rowOffset: interleaved ? block.dy : 0,
                columnStep: interleaved ? block.horizontal : 1, columnOffset: interleaved ? block.dx : 0,
                rowStarts: grid.rowStarts, rowPairs: grid.rowPairs, columnStarts: grid.columnStarts, columnPairs: grid.columnPairs,
                rowMatrices: grid.rowMatrices, columnMatrices: grid.columnMatrices,
                samples: grid.storage, stride: grid.columns.count)
        }
        let natural = pinned(naturalOrder.map { Int32($0) })
        // Per MCU row and per MCU column, which of an MCU's blocks lie in a wanted block row (column): an
        // MCU's wanted blocks are the bits set in both, and most MCUs have none.
        let rowMasks = pinned((0 ..< mcuRows).map { row in
            plans.indices.reduce(UInt32(0)) { mask, index in
                let plan = plans[index], blockRow = row * plan.rowStep + plan.rowOffset
                return blockRow < plan.blockRows && plan.wantedRows[blockRow] ? mask | 1 << index : mask
            }
        })
        let columnMasks = pinned((0 ..< mcusPerRow).map { column in
            plans.indices.reduce(UInt32(0)) { mask, index in
                let plan = plans[index], blockColumn = column * plan.columnStep + plan.columnOffset
                return blockColumn < plan.blockColumns && plan.wantedColumns[blockColumn] ? mask | 1 << index : mask
            }
        })

        return withExtendedLifetime((grids, tables)) {
            plans.withUnsafeBufferPointer { plans in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 64 + 8 + 4) { scratch in
                    let workspace = scratch.baseAddress!, predictions = workspace + 72
                    for index in 0 ..< starts.count - 1 {
                        for slot in 0 ..< 4 { predictions[slot] = 0 }
                        var pointer = base + starts[index]
                        let limitBits = starts[index + 1] * 8
                        var buffer: UInt64 = 0, available = 0
                        let firstMCU = index * interval, lastMCU = min(firstMCU + interval, totalMCUs)
                        var row = firstMCU / mcusPerRow, column = firstMCU &- row &* mcusPerRow
                        for _ in firstMCU ..< lastMCU {
                            let wantedBlocks = rowMasks[row] & columnMasks[column]
                            if wantedBlocks == 0 {
                                // No block wanted: DC terms for the predictions, every AC symbol skipped.
                                for blockIndex in plans.indices {
                                    let plan = plans.baseAddress! + blockIndex
                                    guard let difference = JPEGDCDecoder.dcDifference(
                                        buffer: &buffer, available: &available, pointer: &pointer, lookup: plan.pointee.dcLookup,
                                        codes: plan.pointee.dcCodes, shift: dcShift)
                                    else { return false }
                                    predictions[plan.pointee.slot] &+= difference
                                    guard JPEGDCDecoder.skipAC(
                                        buffer: &buffer, available: &available, pointer: &pointer, table: plan.pointee.acSkip,
                                        single: plan.pointee.acLookup, codes: plan.pointee.acCodes, shift: acShift)
                                    else { return false }
                                }
                                column &+= 1
                                if column == mcusPerRow { column = 0; row &+= 1 }
                                if (pointer - base) &* 8 &- available > limitBits { return false }
                                continue
                            }
                            for blockIndex in plans.indices {
                                // Fields read where used (a copy of the whole plan per block loads them all).
                                let plan = plans.baseAddress! + blockIndex
                                guard let difference = JPEGDCDecoder.dcDifference(
                                    buffer: &buffer, available: &available, pointer: &pointer, lookup: plan.pointee.dcLookup,
                                    codes: plan.pointee.dcCodes, shift: dcShift)
                                else { return false }
                                predictions[plan.pointee.slot] &+= difference

                                let blockRow = row &* plan.pointee.rowStep &+ plan.pointee.rowOffset
                                let blockColumn = column &* plan.pointee.columnStep &+ plan.pointee.columnOffset
                                if wantedBlocks & 1 &<< UInt32(blockIndex) == 0 {
                                    guard JPEGDCDecoder.skipAC(
                                        buffer: &buffer, available: &available, pointer: &pointer, table: plan.pointee.acSkip,
                                        single: plan.pointee.acLookup, codes: plan.pointee.acCodes, shift: acShift)
                                    else { return false }
                                    continue
                                }
                                // A wanted block: jidctint.c's column pass at the wanted rows only, summed as each
                                // coefficient is read (libjpeg's decode_mcu: zigzag index k, its run, the value as a
                                // JCOEF), so it runs beside the bit reader's chain of lookups. workspace[8·i + v] is
                                // the i-th wanted row's sum for column v.
                                let rowStart = Int(plan.pointee.rowStarts[blockRow])
                                let rowCount = Int(plan.pointee.rowStarts[blockRow &+ 1]) &- rowStart
                                let matrixRows = plan.pointee.rowMatrices + 8 &* rowStart
                                let quant = plan.pointee.zigzagQuant
                                let dc = Int(Int16(truncatingIfNeeded: predictions[plan.pointee.slot])) &* quant[0]
                                // Up to three wanted rows in the block (a letterbox's pair of rows, or the chroma
                                // rows smooth upsampling reads for it): three rows' sums, without a loop (rows past
                                // `rowCount` read zeros past the matrix rows, and their sums are never read).
                                let threeRows = rowCount <= 3
                                for i in 0 ..< (threeRows ? 3 : rowCount) {
                                    workspace[8 &* i] = matrixRows[8 &* i] &* dc
                                    for v in 1 ..< 8 { workspace[8 &* i &+ v] = 0 }
                                }
                                @inline(__always) func add(_ value: Int, at k: Int) {
                                    let position = Int(natural[k]), u = position &>> 3, v = position & 7
                                    let z = value &* quant[k]
                                    if threeRows {
                                        workspace[v] &+= matrixRows[u] &* z
                                        workspace[8 &+ v] &+= matrixRows[8 &+ u] &* z
                                        workspace[16 &+ v] &+= matrixRows[16 &+ u] &* z
                                    } else {
                                        for i in 0 ..< rowCount { workspace[8 &* i &+ v] &+= matrixRows[8 &* i &+ u] &* z }
                                    }
                                }
                                var k = 1
                                let values = plan.pointee.acValues
                                blockLoop: while true {
                                    buffer |= UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)) &>> UInt64(truncatingIfNeeded: available)
                                    pointer += (63 &- available) &>> 3
                                    available |= 56
                                    // Up to four symbols read whole from the value table (at most valueLookupBits ≤ 14 bits each).
                                    var entry: Int32 = 0
                                    for _ in 0 ..< 4 {
                                        entry = values[Int(buffer &>> valueShift)]
                                        if entry & 0x20 != 0 { break }
                                        // The entry is the shift (its low 6 bits: the bits used, and 0x20 clear).
                                        buffer &<<= UInt64(truncatingIfNeeded: entry)
                                        available &-= Int(entry & 31)
                                        k &+= Int((entry &>> 8) & 15)
                                        add(Int(entry &>> 16), at: k)
                                        k &+= 1
                                        if k >= 64 { break blockLoop }
                                        entry = 0
                                    }
                                    if entry == 0 { continue }
                                    let endLength = Int(entry & 31)
                                    if endLength != 0 {
                                        buffer &<<= UInt64(endLength)
                                        available &-= endLength
                                        break
                                    }
                                    // One symbol on its own: a longer code, or extra bits past the table's index.
                                    buffer |= UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)) &>> UInt64(truncatingIfNeeded: available)
                                    pointer += (63 &- available) &>> 3
                                    available |= 56
                                    let single = plan.pointee.acLookup[Int(buffer &>> acShift)]
                                    var length = Int(single &>> 8), symbol = Int(single & 0xFF)
                                    if single == 0 {
                                        guard let (long, value) = plan.pointee.acCodes.pointee.decode(buffer, longerThan: acBits) else { return false }
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
                                        add(Int(Int16(truncatingIfNeeded: value)), at: k)
                                        k &+= 1
                                    } else {
                                        if run != 15 { break }
                                        k &+= 16
                                    }
                                    if k >= 64 { break }
                                }
                                let columnStart = Int(plan.pointee.columnStarts[blockColumn])
                                rowPass(
                                    workspace, rowCount: rowCount, rows: plan.pointee.rowPairs + 2 &* rowStart,
                                    columnCount: Int(plan.pointee.columnStarts[blockColumn &+ 1]) &- columnStart,
                                    columns: plan.pointee.columnPairs + 2 &* columnStart,
                                    matrixColumns: plan.pointee.columnMatrices + 8 &* columnStart,
                                    samples: plan.pointee.samples, stride: plan.pointee.stride)
                            }
                            column &+= 1
                            if column == mcusPerRow { column = 0; row &+= 1 }
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

    /// jidctint.c's 8-point pass as the integer matrix it is: `islowMatrix[8 * output + input]` is what
    /// input `input` adds to output `output` before the descaling (the pass is sums of products with its
    /// 13-bit constants, exact in integers, so any order of the same sums gives the same value).
    static let islowMatrix: [Int] = {
        var matrix = [Int](repeating: 0, count: 64)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 8) { out in
            for input in 0 ..< 8 {
                var unit = [Int](repeating: 0, count: 8)
                unit[input] = 1
                idct8(unit[0], unit[1], unit[2], unit[3], unit[4], unit[5], unit[6], unit[7], into: out.baseAddress!, step: 1, shift: 0)
                for output in 0 ..< 8 { matrix[8 * output + input] = out[output] }
            }
        }
        return matrix
    }()

    /// The rest of libjpeg-turbo's `jpeg_idct_islow` (jidctint.c: 13-bit constants, the column pass descaled
    /// by 11 bits, the row pass by 18) once the column pass's sums at the `rowCount` wanted rows are in
    /// `workspace` (8 a row): their descaling, then the row pass at the `columnCount` wanted columns
    /// (`matrixColumns`: their rows of ``islowMatrix``). Each pass is the matrix's sums, which are the
    /// butterflies' values exactly (its shortcuts for all-zero AC give the same). `rows` and `columns` are
    /// (place in block, index) pairs; samples go to `samples[row index · stride + column index]`.
    @inline(__always)
    // swiftlint:disable:next function_parameter_count
    static func rowPass(
        _ workspace: UnsafeMutablePointer<Int>, rowCount: Int, rows: UnsafePointer<Int32>, columnCount: Int,
        columns: UnsafePointer<Int32>, matrixColumns: UnsafePointer<Int>, samples: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        for i in 0 ..< 8 &* rowCount { workspace[i] = (workspace[i] &+ (1 &<< 10)) &>> 11 }
        for i in 0 ..< rowCount {
            let w = workspace + 8 &* i, out = samples + Int(rows[2 &* i &+ 1]) &* stride
            for j in 0 ..< columnCount {
                let r = matrixColumns + 8 &* j
                var sum = r[0] &* w[0] &+ r[1] &* w[1] &+ r[2] &* w[2] &+ r[3] &* w[3]
                sum &+= r[4] &* w[4] &+ r[5] &* w[5] &+ r[6] &* w[6] &+ r[7] &* w[7]
                let value = (sum &+ (1 &<< 17)) &>> 18
                out[Int(columns[2 &* j &+ 1])] = UInt8(truncatingIfNeeded: min(max(value &+ 128, 0), 255))
            }
        }
    }

    /// One 8-point pass of jidctint.c, its outputs descaled by `shift` bits (rounded) into `output`, `step` apart.
    @inline(__always)
    // swiftlint:disable:next function_parameter_count
    static func idct8(
        _ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int, _ i4: Int, _ i5: Int, _ i6: Int, _ i7: Int, into output: UnsafeMutablePointer<Int>,
        step: Int, shift: Int
    ) {
        // Even part.
        var z1 = (i2 &+ i6) &* 4433
        let tmp2e = z1 &+ i6 &* -15137, tmp3e = z1 &+ i2 &* 6270
        let tmp0e = (i0 &+ i4) &<< 13, tmp1e = (i0 &- i4) &<< 13
        let tmp10 = tmp0e &+ tmp3e, tmp13 = tmp0e &- tmp3e, tmp11 = tmp1e &+ tmp2e, tmp12 = tmp1e &- tmp2e
        // Odd part.
        var tmp0 = i7, tmp1 = i5, tmp2 = i3, tmp3 = i1
        z1 = tmp0 &+ tmp3
        var z2 = tmp1 &+ tmp2, z3 = tmp0 &+ tmp2, z4 = tmp1 &+ tmp3
        let z5 = (z3 &+ z4) &* 9633
        tmp0 &*= 2446
        tmp1 &*= 16819
        tmp2 &*= 25172
        tmp3 &*= 12299
        z1 &*= -7373
        z2 &*= -20995
        z3 &*= -16069
        z4 &*= -3196
        z3 &+= z5
        z4 &+= z5
        tmp0 &+= z1 &+ z3
        tmp1 &+= z2 &+ z4
        tmp2 &+= z2 &+ z3
        tmp3 &+= z1 &+ z4
        let round = shift > 0 ? 1 &<< (shift &- 1) : 0
        output[0] = (tmp10 &+ tmp3 &+ round) &>> shift
        output[step] = (tmp11 &+ tmp2 &+ round) &>> shift
        output[2 &* step] = (tmp12 &+ tmp1 &+ round) &>> shift
        output[3 &* step] = (tmp13 &+ tmp0 &+ round) &>> shift
        output[4 &* step] = (tmp13 &- tmp0 &+ round) &>> shift
        output[5 &* step] = (tmp12 &- tmp1 &+ round) &>> shift
        output[6 &* step] = (tmp11 &- tmp2 &+ round) &>> shift
        output[7 &* step] = (tmp10 &- tmp3 &+ round) &>> shift
    }
}
