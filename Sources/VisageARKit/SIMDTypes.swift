// The simd module's names that ARKit's face API uses. Apple's simd defines the vectors as these same
// generic types; the 4×4 matrix is a column-major value as Apple's `simd_float4x4` is.
public typealias simd_float3 = SIMD3<Float>
public typealias simd_float4 = SIMD4<Float>

/// Apple's `simd_float4x4`: four columns, column-major; `columns.3` holds a transform's translation.
public struct simd_float4x4: Sendable, Hashable, CustomStringConvertible {
    public var columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    /// The zero matrix.
    public init() {
        columns = (.zero, .zero, .zero, .zero)
    }

    public init(columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) {
        self.columns = columns
    }

    public init(_ c0: SIMD4<Float>, _ c1: SIMD4<Float>, _ c2: SIMD4<Float>, _ c3: SIMD4<Float>) {
        columns = (c0, c1, c2, c3)
    }

    /// From four columns; traps unless there are exactly four, as Apple's initializer.
    public init(_ columns: [SIMD4<Float>]) {
        precondition(columns.count == 4, "a 4×4 matrix has 4 columns, got \(columns.count)")
        self.columns = (columns[0], columns[1], columns[2], columns[3])
    }

    /// A matrix with `diagonal` on its diagonal and zero elsewhere.
    public init(diagonal: SIMD4<Float>) {
        self.init(
            SIMD4(diagonal.x, 0, 0, 0), SIMD4(0, diagonal.y, 0, 0), SIMD4(0, 0, diagonal.z, 0), SIMD4(0, 0, 0, diagonal.w))
    }

    /// Column `column` (0…3).
    public subscript(column: Int) -> SIMD4<Float> {
        get {
            switch column {
            case 0: columns.0
            case 1: columns.1
            case 2: columns.2
            case 3: columns.3
            default: preconditionFailure("column \(column) of a 4×4 matrix")
            }
        }
        set {
            switch column {
            case 0: columns.0 = newValue
            case 1: columns.1 = newValue
            case 2: columns.2 = newValue
            case 3: columns.3 = newValue
            default: preconditionFailure("column \(column) of a 4×4 matrix")
            }
        }
    }

    /// The element in `column` and `row`, as Apple's `matrix[column, row]`.
    public subscript(column: Int, row: Int) -> Float {
        get { self[column][row] }
        set { self[column][row] = newValue }
    }

    public var transpose: simd_float4x4 {
        simd_float4x4(
            SIMD4(columns.0.x, columns.1.x, columns.2.x, columns.3.x), SIMD4(columns.0.y, columns.1.y, columns.2.y, columns.3.y),
            SIMD4(columns.0.z, columns.1.z, columns.2.z, columns.3.z), SIMD4(columns.0.w, columns.1.w, columns.2.w, columns.3.w))
    }

    public static func * (a: simd_float4x4, v: SIMD4<Float>) -> SIMD4<Float> {
        a.columns.0 * v.x + a.columns.1 * v.y + a.columns.2 * v.z + a.columns.3 * v.w
    }

    public static func * (a: simd_float4x4, b: simd_float4x4) -> simd_float4x4 {
        simd_float4x4(a * b.columns.0, a * b.columns.1, a * b.columns.2, a * b.columns.3)
    }

    public static func == (a: simd_float4x4, b: simd_float4x4) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2 && a.columns.3 == b.columns.3
    }

    public func hash(into hasher: inout Hasher) {
        for column in 0..<4 { hasher.combine(self[column]) }
    }

    public var description: String {
        "simd_float4x4([\(columns.0), \(columns.1), \(columns.2), \(columns.3)])"
    }
}

public typealias float4x4 = simd_float4x4

public let matrix_identity_float4x4 = simd_float4x4(diagonal: SIMD4(1, 1, 1, 1))

public func simd_mul(_ a: simd_float4x4, _ b: simd_float4x4) -> simd_float4x4 { a * b }

public func simd_mul(_ a: simd_float4x4, _ v: SIMD4<Float>) -> SIMD4<Float> { a * v }

public func simd_make_float3(_ x: Float, _ y: Float, _ z: Float) -> SIMD3<Float> { SIMD3(x, y, z) }

/// The first three lanes of `v` (a transform's `columns.3` gives its translation).
public func simd_make_float3(_ v: SIMD4<Float>) -> SIMD3<Float> { SIMD3(v.x, v.y, v.z) }

public func simd_make_float4(_ x: Float, _ y: Float, _ z: Float, _ w: Float) -> SIMD4<Float> { SIMD4(x, y, z, w) }

public func simd_length(_ v: SIMD3<Float>) -> Float { (v * v).sum().squareRoot() }

public func simd_normalize(_ v: SIMD3<Float>) -> SIMD3<Float> { v / simd_length(v) }
