extension Image {
    /// The image scaled to `width × height` pixels, in the same pixel format, all channels (alpha too)
    /// filtered alike. Orientation is kept: the size is of the stored pixels.
    ///
    /// - Complexity: O(output pixels × taps); `.area` taps grow with the shrink factor. Scratch memory is a
    ///   window of horizontally filtered rows, as many as one output row needs.
    /// - Throws: ``ImageError/invalidParameter(name:value:rule:)`` when a size is not positive,
    ///   ``ImageError/imageTooLarge(width:height:limit:)`` beyond ``ImageDecodingOptions/defaultPixelLimit``.
    public func resized(width newWidth: Int, height newHeight: Int, method: ResizeMethod) throws(ImageError) -> Image {
        _ = try Self.validatedByteCount(
            width: newWidth, height: newHeight, pixelFormat: pixelFormat, bytesPerRow: newWidth &* pixelFormat.bytesPerPixel)
        try checkPixelLimit(width: newWidth, height: newHeight, limit: ImageDecodingOptions.defaultPixelLimit)
        if newWidth == width, newHeight == height { return self }
        let columns = ResizeTaps(method: method, source: width, destination: newWidth)
        let rows = ResizeTaps(method: method, source: height, destination: newHeight)
        let channels = pixelFormat.bytesPerPixel
        let rowFloats = newWidth * channels
        return try Image(uninitializedWidth: newWidth, height: newHeight, pixelFormat: pixelFormat, orientation: orientation) { out in
            // Source rows are filtered horizontally once each, into a ring of the last `window` rows; the taps of
            // every output row lie in it because their first rows never decrease.
            let window = rows.maximumCount
            let ring = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats * window)
            let accumulator = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats)
            defer {
                ring.deallocate()
                accumulator.deallocate()
            }
            let result = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            columns.withTaps { columnStarts, columnCounts, columnOffsets, columnWeights in
                rows.withTaps { rowStarts, rowCounts, rowOffsets, rowWeights in
                    withExtendedLifetime(storage) {
                        var nextRow = 0
                        for y in 0..<newHeight {
                            nextRow = max(nextRow, rowStarts[y])
                            while nextRow < rowStarts[y] + rowCounts[y] {
                                let input = UnsafeRawPointer(storage.base + nextRow * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                                var output = ring + (nextRow % window) * rowFloats
                                for x in 0..<newWidth {
                                    let pixel = input + columnStarts[x] * channels
                                    let weights = columnWeights + columnOffsets[x]
                                    for channel in 0..<channels {
                                        var sum: Float = 0
                                        for tap in 0..<columnCounts[x] { sum += weights[tap] * Float(pixel[tap * channels + channel]) }
                                        output[channel] = sum
                                    }
                                    output += channels
                                }
                                nextRow += 1
                            }
                            accumulator.initialize(repeating: 0, count: rowFloats)
                            for tap in 0..<rowCounts[y] {
                                let weight = rowWeights[rowOffsets[y] + tap]
                                let source = ring + ((rowStarts[y] + tap) % window) * rowFloats
                                for index in 0..<rowFloats { accumulator[index] += weight * source[index] }
                            }
                            let output = result + y * rowFloats
                            for index in 0..<rowFloats { output[index] = UInt8(min(max(accumulator[index] + 0.5, 0), 255)) }
                        }
                    }
                }
            }
        }
    }
}

/// For each output index along one axis: the first source index, the number of taps and their weights.
private struct ResizeTaps {
    private var starts: [Int] = []
    private var counts: [Int] = []
    private var offsets: [Int] = []
    private var weights: [Float] = []

    init(method: ResizeMethod, source: Int, destination: Int) {
        let scale = Double(source) / Double(destination)
        for index in 0..<destination {
            offsets.append(weights.count)
            switch method {
            case .area:
                // Output pixel `index` covers source interval [index·scale, (index+1)·scale).
                let low = Double(index) * scale, high = min(Double(index + 1) * scale, Double(source))
                let first = Int(low.rounded(.down)), last = min(Int(high.rounded(.up)), source) - 1
                starts.append(first)
                counts.append(last - first + 1)
                for k in first...last {
                    weights.append(Float((min(Double(k + 1), high) - max(Double(k), low)) / (high - low)))
                }
            case .bilinear:
                // OpenCV INTER_LINEAR: centres aligned, clamped at the edges.
                var position = (Double(index) + 0.5) * scale - 0.5
                position = min(max(position, 0), Double(source - 1))
                let first = min(Int(position.rounded(.down)), max(source - 2, 0))
                let fraction = position - Double(first)
                starts.append(first)
                if source == 1 {
                    counts.append(1)
                    weights.append(1)
                } else {
                    counts.append(2)
                    weights.append(Float(1 - fraction))
                    weights.append(Float(fraction))
                }
            }
        }
    }

    /// The most taps of any output index.
    var maximumCount: Int { counts.max() ?? 1 }

    /// Calls `body` with the starts, counts, weight offsets and weights as raw pointers, for the inner loops.
    func withTaps<R>(
        _ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Float>) -> R
    ) -> R {
        starts.withUnsafeBufferPointer { starts in
            counts.withUnsafeBufferPointer { counts in
                offsets.withUnsafeBufferPointer { offsets in
                    weights.withUnsafeBufferPointer { weights in
                        body(starts.baseAddress!, counts.baseAddress!, offsets.baseAddress!, weights.baseAddress!)
                    }
                }
            }
        }
    }
}
