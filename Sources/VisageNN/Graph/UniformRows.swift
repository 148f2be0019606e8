#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one invocation knows of its activations' rows: for each row of a batch-1 NHWC tensor, a
/// run of columns `lo..<hi` whose pixels hold the same values, bit for bit, in every channel.
///
/// A detector's letterbox fills the rows above and below the picture with one value. The
/// interpreter scans its inputs for such rows; each convolution, depthwise convolution and max
/// pool then works out which of its output pixels read only equal values (their windows lie in
/// a run of every input row they read, or in padding rows) and records them for its own output.
/// A convolution computes one pixel of each run and copies it over the rest (`PackedConvolution`'s
/// `uniformColumns`); a 3×3 depthwise convolution computes an output row that reads only rows of one
/// repeated pixel (or padding) as a narrow row with the same edges and copies it out, and at stride 1
/// also a row whose input rows share a long run (the middle of the run cut out, its outputs copied)
/// (`PackedDepthwiseConvolution`'s `uniformInput`); max pools compute everything and only pass the
/// description on. Any other
/// operator leaves its outputs unknown, so the values never depend on what is known: knowing
/// less only costs time.
///
/// Why copying gives the same values: every kernel computes an output pixel from its own taps in an
/// order fixed by the layer (bias, then taps and channels in turn), whatever tile, band or
/// channel range it falls in, which is also what lets threads split a layer (``OutputSplit``).
/// Pixels whose taps read equal values therefore come out equal. The tests compare whole models
/// with and without it (``InterpreterOptions/skipsUniformColumns``).
///
/// Layout: two `Int32` a row, `lo` then `hi`; `lo >= hi` means nothing is known of the row.
/// Not `Sendable`: one per interpreter, written only on the calling thread between operations
/// (helper threads read a finished description).
package final class UniformRows {
    /// Per tensor: where its rows start in `storage` (in rows), or -1 when it is not tracked.
    private let offsets: [Int]
    /// Per tensor: rows, columns and channels of a tracked tensor.
    private let shapes: [(rows: Int, columns: Int, channels: Int)]
    private let storage: UnsafeMutablePointer<Int32>
    private let known: UnsafeMutablePointer<Bool>

    /// - Parameter shapes: each tensor's shape; 4-D shapes with batch 1 are tracked.
    init(shapes: [[Int]]) {
        var offsets: [Int] = []
        var rows = 0
        self.shapes = shapes.map { $0.count == 4 && $0[0] == 1 ? ($0[1], $0[2], $0[3]) : (0, 0, 0) }
        for shape in self.shapes {
            offsets.append(shape.rows > 0 ? rows : -1)
            rows += shape.rows
        }
        self.offsets = offsets
        storage = .allocate(capacity: max(2 * rows, 1))
        storage.initialize(repeating: 0, count: max(2 * rows, 1))
        known = .allocate(capacity: max(shapes.count, 1))
        known.initialize(repeating: false, count: max(shapes.count, 1))
    }

    deinit {
        storage.deallocate()
        known.deallocate()
    }

    /// Forgets every tensor: the start of an invocation.
    func reset() {
        known.update(repeating: false, count: offsets.count)
    }

    /// The rows of `tensor`, when it has been described in this invocation (and has `height` rows, when given).
    func rows(_ tensor: Int, height: Int? = nil) -> UnsafePointer<Int32>? {
        guard known[tensor], height == nil || height == shapes[tensor].rows else { return nil }
        return UnsafePointer(storage + 2 * offsets[tensor])
    }

    /// Storage for `tensor`'s rows (all unknown), which it marks described; nil when the tensor is not tracked.
    func describe(_ tensor: Int) -> UnsafeMutablePointer<Int32>? {
        guard offsets[tensor] >= 0 else { return nil }
        known[tensor] = true
        let rows = storage + 2 * offsets[tensor]
        rows.update(repeating: 0, count: 2 * shapes[tensor].rows)
        return rows
    }

    func forget(_ tensor: Int) {
        known[tensor] = false
    }

    /// Describes `tensor` from its values: a row whose pixels are all equal (bit for bit, so a NaN or
    /// a negative zero counts only as itself) is one run over every column.
    func scan(_ tensor: Int, _ values: UnsafePointer<Float>) {
        let shape = shapes[tensor]
        guard shape.columns > 1, let rows = describe(tensor) else { return }
        let rowLength = shape.columns * shape.channels
        for y in 0 ..< shape.rows {
            let row = UnsafeRawPointer(values + y * rowLength)
            // Pixel x equals pixel x + 1 for every x exactly when the row equals itself moved one pixel on.
            if memcmp(row, row + shape.channels * MemoryLayout<Float>.stride, (rowLength - shape.channels) * MemoryLayout<Float>.stride) == 0 {
                rows[2 * y] = 0
                rows[2 * y + 1] = Int32(shape.columns)
            }
        }
    }
}

extension UniformRows {
    /// Describes `output`'s rows from `input`'s through `shape`'s windows
    /// (``ConvolutionShape/describeUniformRows(input:output:)``), when `input` is described at
    /// `shape`'s height and `output` is tracked; otherwise leaves `output` unknown.
    /// - Returns: `output`'s rows and whether some row has a run of two or more pixels, or nil.
    @discardableResult
    func describe(_ output: Int, from input: Int, through shape: ConvolutionShape) -> (rows: UnsafeMutablePointer<Int32>, runs: Bool)? {
        guard let rows = rows(input, height: shape.inputHeight), let described = describe(output) else {
            forget(output)
            return nil
        }
        return (described, shape.describeUniformRows(input: rows, output: described))
    }
}

extension ConvolutionShape {
    /// Describes the output's rows from the input's, for an operator whose output pixel reads the
    /// window `kernelHeight × kernelWidth` at its stride and padding, input rows outside the input
    /// read as zeros or skipped alike for every pixel of the row. A pixel whose window lies inside
    /// the run of every input row it reads gets the same values as its neighbours in that run.
    /// - Returns: whether some row has a run of two or more pixels.
    @discardableResult
    func describeUniformRows(input: UnsafePointer<Int32>, output: UnsafeMutablePointer<Int32>) -> Bool {
        var any = false
        for y in 0 ..< outputHeight {
            output[2 * y] = 0
            output[2 * y + 1] = 0
            let top = y * strideY - padTop
            let first = max(top, 0), end = min(top + kernelHeight, inputHeight)
            guard first < end else { continue }
            var lo = 0, hi = inputWidth
            for row in first ..< end {
                lo = max(lo, Int(input[2 * row]))
                hi = min(hi, Int(input[2 * row + 1]))
            }
            // Pixels x with lo <= x × strideX - padLeft and x × strideX - padLeft + kernelWidth <= hi.
            guard hi - lo >= kernelWidth else { continue }
            let columnLo = (lo + padLeft + strideX - 1) / strideX
            let columnHi = min((hi + padLeft - kernelWidth) / strideX + 1, outputWidth)
            guard columnLo < columnHi else { continue }
            output[2 * y] = Int32(columnLo)
            output[2 * y + 1] = Int32(columnHi)
            any = any || columnHi - columnLo >= 2
        }
        return any
    }
}

extension UniformRows {
    /// `scan(_:_:)` of a `rows × columns × channels` tensor, as an array in the same layout (for tests).
    package static func scanned(_ values: [Float], rows: Int, columns: Int, channels: Int) -> [Int32] {
        let uniformRows = UniformRows(shapes: [[1, rows, columns, channels]])
        values.withUnsafeBufferPointer { uniformRows.scan(0, $0.baseAddress!) }
        return Array(UnsafeBufferPointer(start: uniformRows.rows(0)!, count: 2 * rows))
    }
}

extension ConvolutionShape {
    /// `describeUniformRows(input:output:)` on arrays (for tests).
    package func uniformRows(input: [Int32]) -> [Int32] {
        precondition(input.count == 2 * inputHeight)
        var output = [Int32](repeating: 0, count: 2 * outputHeight)
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { describeUniformRows(input: input.baseAddress!, output: $0.baseAddress!) }
        }
        return output
    }
}
