extension Optional where Wrapped == [Float] {
    /// Calls `body` with a pointer to the array's elements, or with nil when there is no array: how an
    /// optional constant (a convolution's bias) reaches a kernel that takes an optional buffer.
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Float>?) throws -> R) rethrows -> R {
        guard let array = self else { return try body(nil) }
        return try array.withUnsafeBufferPointer { try body($0) }
    }
}
