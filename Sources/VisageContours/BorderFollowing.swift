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
    package static func traceBorders(in mask: BinaryMask) -> TracedBorders {
        let width = mask.width, height = mask.height
        var result = TracedBorders(
            width: width, height: height, coordinates: [], pointOffsets: [0], parents: [], isHole: [])
        guard width > 0, height > 0 else { return result }
        let stride = width + 2, count = stride * (height + 2)
        let labels = UnsafeMutablePointer<Int32>.allocate(capacity: count)
        defer { labels.deallocate() }
        // The frame rows and columns are 0; every mask pixel becomes 0 or 1.
        labels.initialize(repeating: 0, count: stride)
        (labels + (height + 1) * stride).initialize(repeating: 0, count: stride)
        mask.pixels.withUnsafeBufferPointer { source in
            for y in 0 ..< height {
                let row = labels + (y + 1) * stride, sourceRow = source.baseAddress! + y * width
                row[0] = 0
                row[width + 1] = 0
                for x in 0 ..< width { row[x + 1] = sourceRow[x] == 0 ? 0 : 1 }
            }
        }
        scan(labels, width: width, height: height, into: &result)
        return result
    }

    /// The raster scan: finds border starts, decides parents, traces.
    private static func scan(
        _ image: UnsafeMutablePointer<Int32>, width: Int, height: Int, into result: inout TracedBorders
    ) {
        let stride = width + 2
        // Moves to the 8 neighbours, counter-clockwise on screen starting east: E, NE, N, NW, W,
        // SW, S, SE; twice round, so a search that starts at any direction runs 8 steps unwrapped.
        let offsets = [1, 1 - stride, -stride, -stride - 1, -1, stride - 1, stride, stride + 1]
        let steps: [(Int, Int32, Int32)] = Array(
            zip(offsets, zip([1, 1, 0, -1, -1, -1, 0, 1] as [Int32], [0, -1, -1, -1, 0, 1, 1, 1] as [Int32]))
                .map { ($0, $1.0, $1.1) }
                .repeated(2))
        var coordinates: [Int32] = []
        coordinates.reserveCapacity(4096)
        defer { result.coordinates = coordinates }
        steps.withUnsafeBufferPointer { steps in
            for y in 1 ... height {
                let row = image + y * stride
                var lastBorder: Int32 = 1  // label of the last border met on this row; 1 is the frame
                var previous: Int32 = 0
                var x = 1
                while true {
                    // Skip the run of pixels equal to the previous one, eight at a time where possible
                    // (reading into the right frame column is fine: it is part of the buffer).
                    let same = UInt64(UInt32(bitPattern: previous)) &* 0x1_0000_0001
                    while x + 8 <= stride {
                        let run = UnsafeRawPointer(row + x)
                        let difference = (run.loadUnaligned(as: UInt64.self) ^ same)
                            | (run.loadUnaligned(fromByteOffset: 8, as: UInt64.self) ^ same)
                            | (run.loadUnaligned(fromByteOffset: 16, as: UInt64.self) ^ same)
                            | (run.loadUnaligned(fromByteOffset: 24, as: UInt64.self) ^ same)
                        if difference != 0 { break }
                        x += 8
                    }
                    while x <= width && row[x] == previous { x += 1 }
                    if x > width { break }
                    let pixel = row[x]
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
                        isHole: isHole, label: label, steps: steps, into: &coordinates)
                    result.pointOffsets.append(coordinates.count / 2)
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
        isHole: Bool, label: Int32, steps: UnsafeBufferPointer<(Int, Int32, Int32)>, into coordinates: inout [Int32]
    ) {
        let firstDirection = isHole ? 0 : 4
        var direction = firstDirection
        var first = start
        repeat {
            direction = (direction - 1) & 7
            first = start + steps[direction].0
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
                next = current + steps[direction].0
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
            x += steps[direction].1
            y += steps[direction].2
            if next == start && current == first { break }
            current = next
            direction = (direction + 4) & 7
        }
    }
}

private extension Array {
    func repeated(_ times: Int) -> [Element] { (0 ..< times).flatMap { _ in self } }
}
