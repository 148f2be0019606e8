import VisageImage

/// Gray levels to foreground and background: the contrast stage and the threshold in one table.
///
/// The contrast stage maps a gray value `v` (0…1) to `clamp((v − pivot) × adjustment + pivot, 0, 1)`,
/// which stretches values away from the pivot; the result is then thresholded at mid-gray (0.5).
/// Foreground is what is darker than mid-gray when detecting dark on light, lighter otherwise.
/// Together this is a threshold on the input at `pivot + (0.5 − pivot) / adjustment`: at the
/// default pivot 0.5 it is 0.5 whatever the adjustment, while sweeping pivot and adjustment
/// (contour art) moves it. An adjustment of 0 makes every pixel the pivot, so no edges remain.
package struct Binarization: Sendable, Hashable {
    package var pivot: Double
    package var adjustment: Double
    package var detectsDarkOnLight: Bool

    package init(pivot: Double, adjustment: Double, detectsDarkOnLight: Bool) {
        self.pivot = pivot
        self.adjustment = adjustment
        self.detectsDarkOnLight = detectsDarkOnLight
    }

    /// 255 for the gray levels that are foreground, 0 for the others.
    package var table: [UInt8] {
        (0 ... 255).map { level in
            let value = Double(level) / 255
            let adjusted = min(max((value - pivot) * adjustment + pivot, 0), 1)
            let foreground = detectsDarkOnLight ? adjusted < 0.5 : adjusted > 0.5
            return foreground ? 255 : 0
        }
    }

    /// The mask of a gray image: `pixels` are `width × height` bytes, `bytesPerRow` apart.
    package func mask(gray pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) -> BinaryMask {
        let table = self.table
        var out = [UInt8](repeating: 0, count: width * height)
        table.withUnsafeBufferPointer { table in
            out.withUnsafeMutableBufferPointer { out in
                for y in 0 ..< height {
                    let row = pixels.baseAddress!.advanced(by: y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    for x in 0 ..< width { out[y * width + x] = table[Int(row[x])] }
                }
            }
        }
        return BinaryMask(width: width, height: height, pixels: out)
    }

    /// The automatic pivot for `adjustment`: the one that puts the threshold on Otsu's level of the
    /// gray histogram (the level splitting the pixels into two classes with the largest
    /// between-class variance), solving `pivot + (0.5 − pivot) / adjustment = level` and clamping
    /// to 0…1, so adjustment a reaches the levels between 0.5/a and 1 − 0.5/a. At exactly 1 (no
    /// contrast change) and 0 the pivot does not matter and is the level itself.
    package static func automaticPivot(
        gray pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, adjustment: Double
    ) -> Double {
        let level = otsuLevel(gray: pixels, width: width, height: height, bytesPerRow: bytesPerRow)
        guard adjustment != 1, adjustment != 0 else { return level }
        return min(max((level - 0.5 / adjustment) / (1 - 1 / adjustment), 0), 1)
    }

    /// Otsu's threshold as a value in 0…1, midway between the chosen level and the next;
    /// 0.5 when the image has a single gray level.
    package static func otsuLevel(gray pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) -> Double {
        var histogram = [Int](repeating: 0, count: 256)
        for y in 0 ..< height {
            let row = pixels.baseAddress!.advanced(by: y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0 ..< width { histogram[Int(row[x])] += 1 }
        }
        let total = Double(width * height)
        let totalSum = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var below = 0.0, belowSum = 0.0
        var best = -1.0, bestLevel = -1
        for level in 0 ..< 255 {
            below += Double(histogram[level])
            belowSum += Double(level * histogram[level])
            let above = total - below
            guard below > 0, above > 0 else { continue }
            let meanBelow = belowSum / below, meanAbove = (totalSum - belowSum) / above
            let variance = below * above * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if variance > best {
                best = variance
                bestLevel = level
            }
        }
        return bestLevel < 0 ? 0.5 : (Double(bestLevel) + 0.5) / 255
    }
}

extension Binarization {
    /// The mask of a gray8 image.
    package func mask(of gray: Image) -> BinaryMask {
        gray.withUnsafeBytes { mask(gray: $0, width: gray.width, height: gray.height, bytesPerRow: gray.bytesPerRow) }
    }
}
