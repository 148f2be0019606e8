/// Floats on a 64-byte boundary, freed with their owner (``PackedWeights``' panels, an ``Interpreter``'s
/// arena): a 16-float weight panel or activation row then fills one cache line, where an array's storage
/// (after its header) or a large malloc (16 bytes past a page) split every second 256-bit load across
/// two lines.
final class AlignedFloats: @unchecked Sendable {
    /// The first float. Packed weights are written only while they are being built; an interpreter's arena
    /// on every run, by the one task that owns the interpreter.
    let base: UnsafeMutablePointer<Float>
    let count: Int

    /// `count` floats (at least one allocated), zeroed.
    init(count: Int) {
        self.count = count
        base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * MemoryLayout<Float>.stride, alignment: 64)
            .bindMemory(to: Float.self, capacity: max(count, 1))
        base.initialize(repeating: 0, count: max(count, 1))
    }

    deinit { base.deallocate() }
}
