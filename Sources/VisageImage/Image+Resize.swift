extension Image {
    /// The image scaled to `width × height` pixels, in the same pixel format, all channels (alpha too)
    /// filtered alike. Orientation is kept: the size is of the stored pixels.
    ///
    /// - Complexity: O(output pixels × taps); `.area` taps grow with the shrink factor.
    /// - Throws: ``ImageError/invalidParameter(name:value:rule:)`` when a size is not positive or too large.
    public func resized(width newWidth: Int, height newHeight: Int, method: ResizeMethod) throws(ImageError) -> Image {
        _ = try Self.validatedByteCount(
            width: newWidth, height: newHeight, pixelFormat: pixelFormat, bytesPerRow: newWidth &* pixelFormat.bytesPerPixel)
        if newWidth == width, newHeight == height { return self }
        let columns = ResizeTaps(method: method, source: width, destination: newWidth)
        let rows = ResizeTaps(method: method, source: height, destination: newHeight)
        let channels = pixelFormat.bytesPerPixel
        let rowFloats = newWidth * channels
        return try Image(uninitializedWidth: newWidth, height: newHeight, pixelFormat: pixelFormat, orientation: orientation) { out in
            // Horizontal pass over every source row into floats, then the vertical pass per output row.
            let horizontal = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats * height)
            defer { horizontal.deallocate() }
            withExtendedLifetime(storage) {
                for y in 0..<height {
                    let input = UnsafeRawPointer(storage.base + y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    let output = horizontal + y * rowFloats
                    for x in 0..<newWidth {
                        let (start, count, weightsAt) = columns[x]
                        for channel in 0..<channels {
                            var sum: Float = 0
                            for tap in 0..<count { sum += columns.weights[weightsAt + tap] * Float(input[(start + tap) * channels + channel]) }
                            output[x * channels + channel] = sum
                        }
                    }
                }
            }
            let result = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in 0..<newHeight {
                let (start, count, weightsAt) = rows[y]
                let output = result + y * rowFloats
                for index in 0..<rowFloats {
                    var sum: Float = 0
                    for tap in 0..<count { sum += rows.weights[weightsAt + tap] * horizontal[(start + tap) * rowFloats + index] }
                    output[index] = UInt8(min(max(sum + 0.5, 0), 255))
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
    private(set) var weights: [Float] = []

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

    subscript(index: Int) -> (start: Int, count: Int, weightsAt: Int) { (starts[index], counts[index], offsets[index]) }
}
