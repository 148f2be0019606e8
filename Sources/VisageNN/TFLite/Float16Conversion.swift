/// Widens IEEE half-precision bits to a `Float`, exactly (subnormals, infinities and NaN included).
///
/// Written out rather than using `Float16`, which Swift does not offer on every platform.
@inline(__always)
func float(fromHalf bits: UInt16) -> Float {
    let sign = UInt32(bits & 0x8000) << 16
    let exponent = UInt32(bits >> 10) & 0x1f
    let mantissa = UInt32(bits & 0x3ff)
    switch exponent {
    case 0:
        // Zero or subnormal: mantissa × 2^-24.
        let magnitude = Float(mantissa) * 0x1p-24
        return sign == 0 ? magnitude : -magnitude
    case 0x1f:
        return Float(bitPattern: sign | 0x7f80_0000 | mantissa << 13)
    default:
        return Float(bitPattern: sign | (exponent + 112) << 23 | mantissa << 13)
    }
}
