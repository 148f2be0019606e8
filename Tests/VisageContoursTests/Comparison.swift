/// True when `value` is within `tolerance` of `expected`.
func isClose(_ value: Double, _ expected: Double, tolerance: Double = 1e-9) -> Bool {
    abs(value - expected) <= tolerance
}
