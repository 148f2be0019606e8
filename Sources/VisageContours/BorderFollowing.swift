/// Suzuki and Abe's border following (1985): every border of a binary image, outer borders and
/// holes, with the full nesting — the algorithm behind OpenCV's `findContours` with `RETR_TREE`
/// and `CHAIN_APPROX_NONE`, and producing the same points from the same start in the same
/// direction.
///
/// The mask is copied into a label image with a one-pixel background frame (so shapes touching
/// the image edge get closed borders, as in OpenCV). A raster scan finds the start of each border:
/// an outer border where a background pixel is followed by an unlabeled foreground pixel, a hole
/// border where a foreground pixel is followed by background. Each border is traced
/// counter-clockwise in image coordinates (8-connectivity for foreground) and its pixels labeled
/// with its number, negated where the pixel's right neighbour is background, which keeps the scan
/// from starting the same border twice. The last border met on the row decides the parent.
///
/// - Complexity: O(width × height + total points); one `Int32` label image of
///   (width + 2) × (height + 2).
package enum BorderFollowing {
    /// Moves to the 8 neighbours, counter-clockwise on screen starting east: E, NE, N, NW, W, SW, S, SE.
    private static let dx: [Int32] = [1, 1, 0, -1, -1, -1, 0, 1]
    private static let dy: [Int32] = [0, -1, -1, -1, 0, 1, 1, 1]

    package static func traceBorders(in mask: BinaryMask) -> TracedBorders {
        let width = mask.width, height = mask.height
        var result = TracedBorders(
            width: width, height: height, coordinates: [], pointOffsets: [0], parents: [], isHole: [])
        guard width > 0, height > 0 else { return result }
        let stride = width + 2
        var labels = [Int32](repeating: 0, count: stride * (height + 2))
        mask.pixels.withUnsafeBufferPointer { source in
            labels.withUnsafeMutableBufferPointer { labels in
                for y in 0 ..< height {
                    let row = (y + 1) * stride + 1, sourceRow = y * width
                    for x in 0 ..< width where source[sourceRow + x] != 0 { labels[row + x] = 1 }
                }
                scan(labels.baseAddress!, width: width, height: height, into: &result)
            }
        }
        return result
    }

    /// The raster scan: finds border starts, decides parents, traces.
    private static func scan(
        _ image: UnsafeMutablePointer<Int32>, width: Int, height: Int, into result: inout TracedBorders
    ) {
        let stride = width + 2
        let offsets = [1, 1 - stride, -stride, -stride - 1, -1, stride - 1, stride, stride + 1]
        // Twice round, so a search that starts at any direction runs 8 steps without wrapping.
        let deltas = offsets + offsets
        deltas.withUnsafeBufferPointer { deltas in
            for y in 1 ... height {
                let row = image + y * stride
                var lastBorder: Int32 = 1  // label of the last border met on this row; 1 is the frame
                var previous: Int32 = 0
                var x = 1
                while x <= width {
                    let pixel = row[x]
                    if pixel == previous {
                        x += 1
                        continue
                    }
                    let isHole: Bool
                    if previous == 0 && pixel == 1 {
                        isHole = false
                    } else if pixel == 0 && previous >= 1 {
                        isHole = true
                        if previous > 1 { lastBorder = previous }
                    } else {
                        previous = pixel
                        if pixel != 1 && pixel != 0 { lastBorder = abs(pixel) }
                        x += 1
                        continue
                    }
                    let parent: Int
                    if lastBorder == 1 {
                        parent = -1
                    } else {
                        let last = Int(lastBorder) - 2
                        parent = result.isHole[last] == isHole ? result.parents[last] : last
                    }
                    let label = Int32(truncatingIfNeeded: result.count + 2)
                    let startX = isHole ? x - 1 : x
                    follow(
                        image, from: y * stride + startX, x: Int32(startX - 1), y: Int32(y - 1),
                        isHole: isHole, label: label, deltas: deltas, into: &result.coordinates)
                    result.pointOffsets.append(result.coordinates.count / 2)
                    result.parents.append(parent)
                    result.isHole.append(isHole)
                    lastBorder = label
                    previous = row[x]
                    x += 1
                }
            }
        }
    }

    /// Traces one border from its start pixel, labels its pixels and appends its points.
    ///
    /// The first neighbour is searched clockwise from the background pixel that revealed the
    /// start (west of an outer border's start, east of a hole's); then each step searches
    /// counter-clockwise from the pixel it came from. The border is closed when the trace is
    /// about to leave the start pixel towards that first neighbour again.
    private static func follow(
        _ image: UnsafeMutablePointer<Int32>, from start: Int, x startX: Int32, y startY: Int32,
        isHole: Bool, label: Int32, deltas: UnsafeBufferPointer<Int>, into coordinates: inout [Int32]
    ) {
        let firstDirection = isHole ? 0 : 4
        var direction = firstDirection
        var first = start
        repeat {
            direction = (direction - 1) & 7
            first = start + deltas[direction]
        } while image[first] == 0 && direction != firstDirection
        if direction == firstDirection {  // an isolated pixel
            image[start] = -label
            coordinates.append(startX)
            coordinates.append(startY)
            return
        }
        var current = start, x = startX, y = startY
        while true {
            let cameFrom = direction
            var next = 0
            repeat {
                direction += 1
                next = current + deltas[direction]
            } while image[next] == 0
            direction &= 7
            // The search passed the east neighbour and found it background: mark the right edge.
            if UInt(bitPattern: direction &- 1) < UInt(bitPattern: cameFrom) {
                image[current] = -label
            } else if image[current] == 1 {
                image[current] = label
            }
            coordinates.append(x)
            coordinates.append(y)
            x += dx[direction]
            y += dy[direction]
            if next == start && current == first { break }
            current = next
            direction = (direction + 4) & 7
        }
    }
}
