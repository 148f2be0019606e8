import Foundation

/// The similarity transform (scale, rotation, translation) that best maps one weighted point set onto
/// another in the least-squares sense: MediaPipe's `SolveWeightedOrthogonalProblem`.
///
/// Centre the sources on their weighted centroid, form the 3×3 correlation of targets with centred
/// sources, take the proper rotation that maximizes it, then the scale and translation in closed form
/// (Umeyama 1991). The rotation comes from Horn's quaternion method (the top eigenvector of a symmetric
/// 4×4 matrix, found by Jacobi sweeps), which gives the same optimal proper rotation as the SVD with a
/// determinant correction that MediaPipe uses, without needing an SVD.
enum WeightedProcrustes {
    /// A 4×4 affine matrix, row-major: `[s·R | t; 0 0 0 1]`.
    struct Solution {
        var rotation: [[Double]]
        var scale: Double
        var translation: SIMD3<Double>

        var matrix: [Double] {
            var m = [Double](repeating: 0, count: 16)
            for row in 0..<3 {
                for column in 0..<3 { m[4 * row + column] = scale * rotation[row][column] }
                m[4 * row + 3] = translation[row]
            }
            m[15] = 1
            return m
        }
    }

    /// Solves for `target ≈ scale · R · source + t` over the pairs with positive weight.
    /// Returns nil when the weighted sources have no spread (the problem has no unique answer).
    static func solve(source: [SIMD3<Double>], target: [SIMD3<Double>], weights: [Double]) -> Solution? {
        precondition(source.count == target.count && source.count == weights.count)
        let total = weights.reduce(0, +)
        guard total > 0 else { return nil }
        var sourceCentre = SIMD3<Double>(repeating: 0), targetCentre = SIMD3<Double>(repeating: 0)
        for i in source.indices {
            sourceCentre += weights[i] * source[i]
            targetCentre += weights[i] * target[i]
        }
        sourceCentre /= total
        targetCentre /= total
        // s[a][b] = Σ w·(source − centre)_a · target_b, and the sources' weighted spread.
        var s = [[Double]](repeating: [0, 0, 0], count: 3)
        var spread = 0.0
        for i in source.indices where weights[i] > 0 {
            let centred = source[i] - sourceCentre
            spread += weights[i] * (centred * centred).sum()
            for a in 0..<3 {
                for b in 0..<3 { s[a][b] += weights[i] * centred[a] * target[i][b] }
            }
        }
        guard spread > 0, spread.isFinite else { return nil }
        let rotation = optimalRotation(s)
        // scale = Σ w·(R·centred)·target / Σ w·|centred|² (MediaPipe's ComputeOptimalScale).
        var numerator = 0.0
        for a in 0..<3 {
            for b in 0..<3 { numerator += rotation[b][a] * s[a][b] }
        }
        let scale = numerator / spread
        var rotatedCentre = SIMD3<Double>(repeating: 0)
        for row in 0..<3 {
            rotatedCentre[row] = (0..<3).reduce(0) { $0 + rotation[row][$1] * sourceCentre[$1] }
        }
        return Solution(rotation: rotation, scale: scale, translation: targetCentre - scale * rotatedCentre)
    }

    /// The proper rotation R maximizing Σ target·(R·source), from `s[a][b] = Σ source_a·target_b`.
    static func optimalRotation(_ s: [[Double]]) -> [[Double]] {
        let (xx, xy, xz) = (s[0][0], s[0][1], s[0][2])
        let (yx, yy, yz) = (s[1][0], s[1][1], s[1][2])
        let (zx, zy, zz) = (s[2][0], s[2][1], s[2][2])
        let n: [[Double]] = [
            [xx + yy + zz, yz - zy, zx - xz, xy - yx],
            [yz - zy, xx - yy - zz, xy + yx, zx + xz],
            [zx - xz, xy + yx, -xx + yy - zz, yz + zy],
            [xy - yx, zx + xz, yz + zy, -xx - yy + zz],
        ]
        let q = topEigenvector(n)
        let (w, x, y, z) = (q[0], q[1], q[2], q[3])
        return [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    }

    /// The unit eigenvector of the largest eigenvalue of a symmetric 4×4 matrix (cyclic Jacobi).
    static func topEigenvector(_ matrix: [[Double]]) -> [Double] {
        var a = matrix
        var v: [[Double]] = (0..<4).map { i in (0..<4).map { $0 == i ? 1 : 0 } }
        for _ in 0..<50 {
            var off = 0.0
            for p in 0..<4 { for q in (p + 1)..<4 { off += a[p][q] * a[p][q] } }
            if off < 1e-30 { break }
            for p in 0..<4 {
                for q in (p + 1)..<4 where a[p][q] != 0 {
                    let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0..<4 {
                        let (akp, akq) = (a[k][p], a[k][q])
                        a[k][p] = c * akp - s * akq
                        a[k][q] = s * akp + c * akq
                    }
                    for k in 0..<4 {
                        let (apk, aqk) = (a[p][k], a[q][k])
                        a[p][k] = c * apk - s * aqk
                        a[q][k] = s * apk + c * aqk
                    }
                    for k in 0..<4 {
                        let (vkp, vkq) = (v[k][p], v[k][q])
                        v[k][p] = c * vkp - s * vkq
                        v[k][q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let top = (0..<4).max { a[$0][$0] < a[$1][$1] }!
        let vector = (0..<4).map { v[$0][top] }
        let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return vector.map { $0 / length }
    }
}
