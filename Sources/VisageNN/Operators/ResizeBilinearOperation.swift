/// RESIZE_BILINEAR to a constant size, honouring `align_corners` and `half_pixel_centers` the way
/// TFLite's reference kernel does (source coordinate clamped to the input, weights from the
/// unclamped fraction); optionally with a residual ADD fused after it (the full-range detector's
/// feature pyramid adds each upsampled map to a finer one).
struct ResizeBilinearOperation: Operation {
    /// Where one output row or column samples the input: two neighbours and the weight of the second.
    struct Sample: Sendable {
        var lower: Int, upper: Int, weight: Float
    }

    let input: Int, output: Int
    /// A tensor of the output's shape added to the resized values.
    let residual: Int?
    let batch: Int, inputHeight: Int, inputWidth: Int, channels: Int
    let rows: [Sample], columns: [Sample]

    var reads: [Int] { [input] + (residual.map { [$0] } ?? []) }
    var writes: [Int] { [output] }

    /// `residual` and `output`: those of an ADD fused after the resize.
    init(_ context: OperatorContext, residual: Int? = nil, output: Int? = nil) throws(ModelError) {
        try context.expect(inputs: 2, outputs: 1)
        guard case .resize(let alignCorners, let halfPixelCenters) = context.node.options else {
            throw context.invalid("has no resize options")
        }
        guard !(alignCorners && halfPixelCenters) else {
            throw context.invalid("align_corners and half_pixel_centers are both set; TFLite allows one")
        }
        input = try context.input(0)
        if let output { self.output = output } else { self.output = try context.output() }
        self.residual = residual
        let shape = try context.floatShape(input)
        let size = try context.integers(try context.input(1))
        guard shape.count == 4, shape.allSatisfy({ $0 > 0 }), size.count == 2, size.allSatisfy({ $0 > 0 && $0 <= 1 << 16 }) else {
            throw context.invalid("input \(shape) must be non-empty NHWC and the size \(size) two positive values")
        }
        try context.expectShape(self.output, [shape[0], size[0], size[1], shape[3]])
        if let residual { try context.expectShape(residual, [shape[0], size[0], size[1], shape[3]]) }
        func samples(input: Int, output: Int) -> [Sample] {
            let scale = alignCorners && output > 1 ? Float(input - 1) / Float(output - 1) : Float(input) / Float(output)
            return (0 ..< output).map { index in
                let source = halfPixelCenters ? (Float(index) + 0.5) * scale - 0.5 : Float(index) * scale
                let lower = max(Int(source.rounded(.down)), 0)
                let upper = min(Int(source.rounded(.up)), input - 1)
                return Sample(lower: min(lower, input - 1), upper: max(upper, 0), weight: source - Float(lower))
            }
        }
        batch = shape[0]
        inputHeight = shape[1]
        inputWidth = shape[2]
        channels = shape[3]
        rows = samples(input: shape[1], output: size[0])
        columns = samples(input: shape[2], output: size[1])
    }

    /// By rows; an output value costs about 24 convolution multiply-accumulates (four scalar taps and their weights).
    func split(threads: Int) -> OutputSplit {
        OutputSplit(rows: rows.count, panels: 1, work: 24 * rows.count * columns.count * channels, threads: threads)
    }

    func run(_ tensors: TensorPointers, workers: Workers) {
        let x = UnsafePointer(tensors[input]), y = tensors[output]
        let r = residual.map { UnsafePointer(tensors[$0]) }
        let inputStride = inputHeight * inputWidth * channels, outputStride = rows.count * columns.count * channels
        let split = split(threads: workers.count)
        for image in 0 ..< batch {
            forEachRowRange(rows.count, split: split, workers: workers) { band in
                if let r {
                    resize(x + image * inputStride, into: y + image * outputStride, adding: r + image * outputStride, add: true, rows: band)
                } else {
                    resize(x + image * inputStride, into: y + image * outputStride, adding: UnsafePointer(y), add: false, rows: band)
                }
            }
        }
    }

    /// Output rows `band` of one image; `adding` is that image's residual (read only when `add`).
    @inline(__always)
    private func resize(
        _ base: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, adding: UnsafePointer<Float>, add: Bool,
        rows band: Range<Int>
    ) {
        let rowLength = columns.count * channels
        var out = output + band.lowerBound * rowLength, residual = adding + band.lowerBound * rowLength
        for row in rows[band] {
            let top = base + row.lower * inputWidth * channels, bottom = base + row.upper * inputWidth * channels
            for column in columns {
                let a = top + column.lower * channels, b = top + column.upper * channels
                let c = bottom + column.lower * channels, d = bottom + column.upper * channels
                let wy = row.weight, wx = column.weight
                for channel in 0 ..< channels {
                    let upper = a[channel] * (1 - wx) + b[channel] * wx
                    let lower = c[channel] * (1 - wx) + d[channel] * wx
                    let value = upper * (1 - wy) + lower * wy
                    out[channel] = add ? value + residual[channel] : value
                }
                out += channels
                residual += channels
            }
        }
    }
}
