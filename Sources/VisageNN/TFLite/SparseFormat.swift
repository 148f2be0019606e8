/// TFLite's encoding of a sparse constant (schema `SparsityParameters`), read and checked so the
/// tensor can be made dense once, at load.
///
/// Schema fields: SparsityParameters{0 traversal_order, 1 block_map, 2 dim_metadata};
/// DimensionMetadata{0 format (0 DENSE, 1 SPARSE_CSR), 1 dense_size, 2/3 array_segments (union
/// type, value), 4/5 array_indices (union type, value)}; the union SparseIndexVector is
/// {1 Int32Vector, 2 Uint16Vector, 3 Uint8Vector}, each a table whose field 0 holds the values.
///
/// The tensor of shape `shape` (rank r) is stored as a tree of r + k levels, k being the number of
/// blocked dimensions: level i walks dimension `traversal_order[i]`; dimensions r…r+k−1 are the
/// blocks' own dimensions, block j cutting original dimension `block_map[j]` into pieces of
/// `dense_size` of level r + j. A DENSE level visits every index of its dimension; a SPARSE_CSR
/// level visits, for parent position p, the indices `array_indices[array_segments[p] ..<
/// array_segments[p + 1]]`. The leaves, in visiting order, are the stored values. This is what
/// LiteRT's `FormatConverter::SparseToDense` reads.
///
/// Everything is checked before a value is placed: the traversal order is a permutation whose
/// block levels come last and in order (as TFLite writes them), block levels are dense and divide
/// their dimension, segments start at 0, never decrease and end at the index count, and indices lie
/// inside their dimension and increase within a segment. Indices that increase make every leaf a
/// distinct dense position, so the stored value count is at most the dense element count, and
/// every level's array is bounded by the file that holds it.
struct SparseFormat: Sendable {
    enum Level: Sendable {
        case dense(size: Int)
        case compressed(segments: [Int], indices: [Int])
    }

    /// The dense (original) shape.
    let shape: [Int]
    /// Per level, the dimension it walks: < rank for original dimensions, rank + j for block j.
    let traversalOrder: [Int]
    /// Per block, the original dimension it cuts.
    let blockMap: [Int]
    /// Per block, its size.
    let blockSizes: [Int]
    let levels: [Level]
    /// How many values the tensor's buffer must hold: the leaves of the level tree.
    let storedCount: Int

    /// Reads and checks `table` (a SparsityParameters) for a tensor `name` of dense `shape`.
    init(_ table: FlatTable, shape: [Int], tensor name: String) throws(ModelError) {
        func invalid(_ reason: String) -> ModelError {
            .modelInvalid(reason: "sparse tensor \(name): \(reason)")
        }
        let rank = shape.count
        let traversal = try table.vector(0, elementSize: 4, "traversal_order")?.int32s() ?? []
        let blockMap = try table.vector(1, elementSize: 4, "block_map")?.int32s() ?? []
        guard let metadata = try table.vector(2, elementSize: 4, "dim_metadata") else {
            throw invalid("no dim_metadata")
        }
        let total = rank + blockMap.count
        guard rank >= 1, blockMap.count <= rank else {
            throw invalid("rank \(rank) with \(blockMap.count) blocked dimensions")
        }
        guard traversal.count == total, metadata.count == total else {
            throw invalid("traversal_order has \(traversal.count) levels and dim_metadata \(metadata.count); "
                + "shape \(shape) with \(blockMap.count) blocks needs \(total)")
        }
        guard traversal[..<rank].sorted() == Array(0 ..< rank), Array(traversal[rank...]) == Array(rank ..< total) else {
            throw invalid("traversal_order \(traversal) is not a permutation of the \(rank) dimensions followed by the \(blockMap.count) block dimensions in order")
        }
        guard blockMap.allSatisfy({ (0 ..< rank).contains($0) }), Set(blockMap).count == blockMap.count else {
            throw invalid("block_map \(blockMap) does not name distinct dimensions of rank \(rank)")
        }

        // Formats and dense sizes first: block sizes decide the sizes of the blocked dimensions.
        var formats: [(compressed: Bool, size: Int, entry: FlatTable)] = []
        for level in 0 ..< total {
            let entry = try metadata.table(level, "dim_metadata \(level)")
            let format = try entry.uint8(0)
            guard format <= 1 else { throw invalid("level \(level) has format \(format); the schema defines 0 (DENSE) and 1 (SPARSE_CSR)") }
            formats.append((format == 1, Int(try entry.int32(1)), entry))
        }
        var blockSizes: [Int] = []
        var blockedShape = shape
        for (block, dimension) in blockMap.enumerated() {
            let level = formats[rank + block]
            guard !level.compressed, level.size >= 1, shape[dimension] % level.size == 0 else {
                throw invalid("block \(block) of dimension \(dimension) (size \(shape[dimension])) has "
                    + "\(level.compressed ? "a SPARSE_CSR level" : "size \(level.size)"); blocks are dense and divide their dimension")
            }
            blockSizes.append(level.size)
            blockedShape[dimension] /= level.size
        }

        // The level tree, counting the positions at each level.
        var levels: [Level] = []
        var positions = 1
        let elements = shape.reduce(1, *)
        for level in 0 ..< total {
            let dimension = traversal[level]
            let size = dimension < rank ? blockedShape[dimension] : blockSizes[dimension - rank]
            let (compressed, denseSize, entry) = formats[level]
            if !compressed {
                guard denseSize == size else {
                    throw invalid("dense level \(level) has dense_size \(denseSize); its dimension has \(size)")
                }
                levels.append(.dense(size: size))
                let (product, overflow) = positions.multipliedReportingOverflow(by: size)
                guard !overflow, product <= elements else { throw invalid("level \(level) has more positions than the tensor has values") }
                positions = product
                continue
            }
            let segments = try Self.indexVector(entry, typeField: 2, "array_segments of level \(level)", invalid)
            let indices = try Self.indexVector(entry, typeField: 4, "array_indices of level \(level)", invalid)
            guard segments.count == positions + 1 else {
                throw invalid("level \(level) has \(segments.count) segments; its \(positions) parent positions need \(positions + 1)")
            }
            guard segments.first == 0, segments.last == indices.count else {
                throw invalid("level \(level)'s segments run \(segments.first ?? -1)…\(segments.last ?? -1); they must run 0…\(indices.count)")
            }
            for parent in 0 ..< positions where segments[parent] > segments[parent + 1] {
                throw invalid("level \(level)'s segments decrease at \(parent)")
            }
            for parent in 0 ..< positions {
                let (start, end) = (segments[parent], segments[parent + 1])
                var previous = -1
                for index in indices[start ..< end] {
                    guard index > previous, index < size else {
                        throw invalid("level \(level) has index \(index) after \(previous) in segment \(parent); "
                            + "indices increase within a segment and lie in 0..<\(size)")
                    }
                    previous = index
                }
            }
            levels.append(.compressed(segments: segments, indices: indices))
            positions = indices.count
        }
        self.shape = shape
        self.traversalOrder = traversal
        self.blockMap = blockMap
        self.blockSizes = blockSizes
        self.levels = levels
        self.storedCount = positions
    }

    /// The values of a SparseIndexVector union whose type tag is field `typeField` (its value the next field).
    private static func indexVector(
        _ entry: FlatTable, typeField: Int, _ what: String, _ invalid: (String) -> ModelError
    ) throws(ModelError) -> [Int] {
        let type = try entry.uint8(typeField)
        guard let table = try entry.table(typeField + 1, what) else { throw invalid("\(what) is missing") }
        switch type {
        case 1:
            return try table.vector(0, elementSize: 4, what)?.int32s() ?? []
        case 2:
            guard let vector = try table.vector(0, elementSize: 2, what) else { return [] }
            var values: [Int] = []
            values.reserveCapacity(vector.count)
            for index in 0 ..< vector.count {
                values.append(Int(try vector.buffer.uint16(at: vector.start + 2 * index)))
            }
            return values
        case 3:
            guard let vector = try table.vector(0, elementSize: 1, what) else { return [] }
            return vector.buffer.bytes[vector.byteRange].map { Int($0) }
        default:
            throw invalid("\(what) has index vector type \(type); the schema defines 1 (int32), 2 (uint16) and 3 (uint8)")
        }
    }

    /// The dense tensor, row-major in `shape`: `stored[i]` for the i-th leaf, `zero` elsewhere.
    /// `stored` must hold ``storedCount`` values.
    func densify<Value>(_ stored: [Value], zero: Value) -> [Value] {
        precondition(stored.count == storedCount)
        let rank = shape.count
        var strides = Array(repeating: 1, count: rank)
        for dimension in stride(from: rank - 2, through: 0, by: -1) {
            strides[dimension] = strides[dimension + 1] * shape[dimension + 1]
        }
        var dense = Array(repeating: zero, count: shape.reduce(1, *))
        var indices = Array(repeating: 0, count: levels.count)
        var next = 0
        /// Visits level `level` below parent position `parent` (its position in the level above).
        func visit(_ level: Int, parent: Int) {
            if level == levels.count {
                var coordinates = Array(repeating: 0, count: rank)
                for position in 0 ..< rank { coordinates[traversalOrder[position]] = indices[position] }
                for (block, dimension) in blockMap.enumerated() {
                    coordinates[dimension] = coordinates[dimension] * blockSizes[block] + indices[rank + block]
                }
                var offset = 0
                for dimension in 0 ..< rank { offset += coordinates[dimension] * strides[dimension] }
                dense[offset] = stored[next]
                next += 1
                return
            }
            switch levels[level] {
            case .dense(let size):
                for index in 0 ..< size {
                    indices[level] = index
                    visit(level + 1, parent: parent * size + index)
                }
            case .compressed(let segments, let positions):
                for position in segments[parent] ..< segments[parent + 1] {
                    indices[level] = positions[position]
                    visit(level + 1, parent: position)
                }
            }
        }
        visit(0, parent: 0)
        return dense
    }
}
