/// A loop nest over up to six dimensions that tracks the matching offsets in two sources with
/// their own strides (0 along a broadcast axis).
///
/// Broadcasting binary operators, TRANSPOSE, STRIDED_SLICE and reductions are all this loop with
/// different strides, so the index arithmetic lives in one place. Shapes of lower rank are
/// padded with leading 1s.
struct StridedWalk: Sendable {
    static let maximumRank = 6

    private let dimensions: [Int]
    private let stridesA: [Int]
    private let stridesB: [Int]
    let baseA: Int
    let baseB: Int

    init(dimensions: [Int], stridesA: [Int], stridesB: [Int], baseA: Int = 0, baseB: Int = 0) {
        precondition(dimensions.count <= Self.maximumRank)
        let padding = Self.maximumRank - dimensions.count
        self.dimensions = Array(repeating: 1, count: padding) + dimensions
        self.stridesA = Array(repeating: 0, count: padding) + stridesA
        self.stridesB = Array(repeating: 0, count: padding) + stridesB
        self.baseA = baseA
        self.baseB = baseB
    }

    /// Row-major element strides of a tensor of `shape`.
    static func strides(of shape: [Int]) -> [Int] {
        var strides = Array(repeating: 1, count: shape.count)
        var stride = 1
        for axis in shape.indices.reversed() {
            strides[axis] = stride
            stride *= shape[axis]
        }
        return strides
    }

    /// Calls `body(index, offsetA, offsetB)` for every element in row-major order.
    @inline(__always)
    func forEach(_ body: (Int, Int, Int) -> Void) {
        let d = dimensions, a = stridesA, b = stridesB
        var index = 0
        for i0 in 0 ..< d[0] {
            let a0 = baseA + i0 * a[0], b0 = baseB + i0 * b[0]
            for i1 in 0 ..< d[1] {
                let a1 = a0 + i1 * a[1], b1 = b0 + i1 * b[1]
                for i2 in 0 ..< d[2] {
                    let a2 = a1 + i2 * a[2], b2 = b1 + i2 * b[2]
                    for i3 in 0 ..< d[3] {
                        let a3 = a2 + i3 * a[3], b3 = b2 + i3 * b[3]
                        for i4 in 0 ..< d[4] {
                            let a4 = a3 + i4 * a[4], b4 = b3 + i4 * b[4]
                            for i5 in 0 ..< d[5] {
                                body(index, a4 + i5 * a[5], b4 + i5 * b[5])
                                index += 1
                            }
                        }
                    }
                }
            }
        }
    }
}
