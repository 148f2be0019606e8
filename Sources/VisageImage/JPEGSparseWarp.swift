import Foundation

extension JPEGSparseDecoder {
    /// ``Image/warpAffine(into:width:height:transform:valueRange:border:roundedToLevels:)`` of the JPEG's
    /// full decode (border zero), bit for bit, from the pixels the warp reads alone (``pixels(_:rows:columns:)``):
    /// a detector's letterbox of a 12-megapixel photo reads about 256 × 192 of them.
    ///
    /// The transform must keep the axes (a letterbox under any EXIF orientation): along an output row one
    /// stored coordinate moves and the other stays, so the warp reads one pair of stored rows (or columns)
    /// per output row, at a fixed set of columns (rows). Each output row is then warped by the same code
    /// from a strip of the picture's full width holding those two rows (only the columns read are filled),
    /// with the transform moved by the strip's first row, a whole number, which leaves every position's
    /// fraction, and so every weight, as it was. False when the transform turns, or the file is not one
    /// ``pixels(_:rows:columns:)`` reads: the caller then decodes the picture.
    ///
    /// With `asOpenCV`, each strip is warped by ``Image/warpAffineFixedPoint(into:width:height:transform:valueRange:border:)``
    /// instead, which equals that warp of the full decode the same way: moving the transform by a whole row
    /// moves its points in 1/32 pixel by a multiple of 32, and a point rounded onto the next row or column
    /// gives the one past it a weight of 0.
    package static func warpAffine(
        _ bytes: UnsafeRawBufferPointer, into tensor: UnsafeMutableBufferPointer<Float>, width outWidth: Int, height outHeight: Int,
        transform: PixelTransform, valueRange: ClosedRange<Float>, asOpenCV: Bool = false
    ) -> Bool {
        guard outWidth > 0, outHeight > 0, tensor.count >= outWidth * outHeight * 3, let headers = JPEGDCDecoder.headers(bytes) else {
            return false
        }
        let (width, height) = (headers.width, headers.height)
        // Along an output row the stored x moves (or, turned a quarter, y); per output row the other is fixed.
        guard let transposed = transform.swapsAxes else { return false }
        guard width >= 2, height >= 2, width < 1 << 29, height < 1 << 29 else { return false }
        let (alongLimit, acrossLimit) = transposed ? (height, width) : (width, height)
        // Per output row the warp starts at (b·y + tx, d·y + ty); with b = 0 (d = 0 turned) the moving
        // coordinate starts at tx (ty) on every row.
        let alongStart = transposed ? transform.ty : transform.tx, alongStep = transposed ? transform.c : transform.a
        var along = Set<Int>()
        func insertPair(_ first: Int, into set: inout Set<Int>, limit: Int) {
            for position in [first, first + 1] where (0 ..< limit).contains(position) { set.insert(position) }
        }
        // The warp's edge columns in Double, its interior in 32.32 fixed point: both positions' pixels.
        for x in 0 ..< outWidth {
            let position = alongStart + alongStep * Double(x)
            if position > -1, position < Double(alongLimit) { insertPair(Int(position + 1) - 1, into: &along, limit: alongLimit) }
        }
        if let start = fixedPoint(alongStart), let step = fixedPoint(alongStep) {
            for x in 0 ..< outWidth {
                insertPair(Int(truncatingIfNeeded: (start &+ step &* Int64(x)) >> 32), into: &along, limit: alongLimit)
            }
        }
        // Per output row, the fixed coordinate and the first of its two stored rows (columns), if inside.
        let fixed = (0 ..< outHeight).map { y in
            transposed ? transform.b * Double(y) + transform.tx : transform.d * Double(y) + transform.ty
        }
        let firsts = fixed.map { position -> Int? in
            position > -1 && position < Double(acrossLimit) ? max(0, Int(position + 1) - 1) : nil
        }
        var across = Set<Int>()
        for first in firsts.compactMap({ $0 }) { insertPair(first, into: &across, limit: acrossLimit) }
        // No output row reaches the picture: every sample is the border, which the warp of any strip gives.
        let alongSorted = along.sorted(), acrossSorted = across.sorted()
        var sparse: SparsePixels?
        if !alongSorted.isEmpty, !acrossSorted.isEmpty {
            sparse = transposed
                ? pixels(bytes, rows: alongSorted, columns: acrossSorted) : pixels(bytes, rows: acrossSorted, columns: alongSorted)
            guard sparse != nil else { return false }
        }
        let channels = headers.components.count == 1 ? 1 : 3
        let format: PixelFormat = channels == 1 ? .gray8 : .rgb8
        // Where each stored row (column) across sits among the sparse pixels' rows (columns).
        var acrossIndex = [Int: Int]()
        for (index, position) in acrossSorted.enumerated() { acrossIndex[position] = index }
        do {
            for y in 0 ..< outHeight {
                let output = UnsafeMutableBufferPointer(rebasing: tensor[y * outWidth * 3 ..< (y + 1) * outWidth * 3])
                var shift = 0, lines = 2
                if let first = firsts[y] {
                    shift = first
                    lines = first + 1 < acrossLimit ? 2 : 1
                }
                let (stripWidth, stripHeight) = transposed ? (lines, height) : (width, lines)
                let strip = try Image(uninitializedWidth: stripWidth, height: stripHeight, pixelFormat: format) { out throws(ImageError) in
                    out.initializeMemory(as: UInt8.self, repeating: 0)
                    guard firsts[y] != nil, let sparse else { return }
                    let target = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    let stride = stripWidth * channels, sparseStride = sparse.columns.count * channels
                    sparse.samples.withUnsafeBufferPointer { samples in
                        for line in 0 ..< lines {
                            guard let acrossAt = acrossIndex[shift + line] else { continue }
                            for (alongAt, position) in alongSorted.enumerated() {
                                let (row, column) = transposed ? (position, line) : (line, position)
                                let source = transposed ? alongAt * sparseStride + acrossAt * channels : acrossAt * sparseStride + alongAt * channels
                                for channel in 0 ..< channels {
                                    target[row * stride + column * channels + channel] = samples[source + channel]
                                }
                            }
                        }
                    }
                }
                // The same row of the warp, from the strip: only the fixed coordinate moves, by a whole number.
                let moved = fixed[y] - Double(shift)
                let rowTransform = transposed
                    ? PixelTransform(a: transform.a, b: transform.b, c: transform.c, d: transform.d, tx: moved, ty: transform.ty)
                    : PixelTransform(a: transform.a, b: transform.b, c: transform.c, d: transform.d, tx: transform.tx, ty: moved)
                if asOpenCV {
                    strip.warpAffineFixedPoint(into: output, width: outWidth, height: 1, transform: rowTransform, valueRange: valueRange, border: .zero)
                } else {
                    strip.warpAffine(into: output, width: outWidth, height: 1, transform: rowTransform, valueRange: valueRange, border: .zero)
                }
            }
        } catch {
            return false
        }
        return true
    }

    /// A coordinate in the warp's 32.32 fixed point, when it uses it.
    private static func fixedPoint(_ coordinate: Double) -> Int64? {
        guard coordinate.isFinite, abs(coordinate) < 0x1p29 else { return nil }
        return Int64(coordinate * 0x1p32)
    }
}
