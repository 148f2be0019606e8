/// The assignment of rows to columns with the least total cost (Kuhn–Munkres, "Hungarian" method,
/// with potentials: O(n²·m) for n rows and m columns).
///
/// Tracking assigns faces to tracks this way rather than first-come, so a track cannot steal the face
/// that fits another track better (faces crossing).
package enum OptimalAssignment {
    /// For each row, the column it is assigned, or nil when it gets none (more rows than columns).
    /// `cost` is rectangular, finite; an empty matrix gives an empty result.
    package static func solve(_ cost: [[Double]]) -> [Int?] {
        let rows = cost.count, columns = cost.first?.count ?? 0
        guard rows > 0, columns > 0 else { return Array(repeating: nil, count: rows) }
        // The classic algorithm needs rows ≤ columns; transpose otherwise.
        if rows > columns {
            let transposed = (0..<columns).map { c in (0..<rows).map { cost[$0][c] } }
            var result = [Int?](repeating: nil, count: rows)
            for (column, row) in solve(transposed).enumerated() { if let row { result[row] = column } }
            return result
        }
        // 1-based arrays; column 0 is the virtual start.
        var u = [Double](repeating: 0, count: rows + 1), v = [Double](repeating: 0, count: columns + 1)
        var owner = [Int](repeating: 0, count: columns + 1), way = [Int](repeating: 0, count: columns + 1)
        for row in 1...rows {
            owner[0] = row
            var column0 = 0
            var minimum = [Double](repeating: .infinity, count: columns + 1)
            var used = [Bool](repeating: false, count: columns + 1)
            repeat {
                used[column0] = true
                let row0 = owner[column0]
                var delta = Double.infinity, column1 = 0
                for column in 1...columns where !used[column] {
                    let reduced = cost[row0 - 1][column - 1] - u[row0] - v[column]
                    if reduced < minimum[column] { (minimum[column], way[column]) = (reduced, column0) }
                    if minimum[column] < delta { (delta, column1) = (minimum[column], column) }
                }
                for column in 0...columns {
                    if used[column] {
                        u[owner[column]] += delta
                        v[column] -= delta
                    } else {
                        minimum[column] -= delta
                    }
                }
                column0 = column1
            } while owner[column0] != 0
            repeat {
                let previous = way[column0]
                owner[column0] = owner[previous]
                column0 = previous
            } while column0 != 0
        }
        var result = [Int?](repeating: nil, count: rows)
        for column in 1...columns where owner[column] != 0 { result[owner[column] - 1] = column - 1 }
        return result
    }
}
