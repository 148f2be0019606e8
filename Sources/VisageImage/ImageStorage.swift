/// The pixel memory behind ``Image``: owned by Visage, or borrowed from a caller and handed back
/// through its deallocator when the last `Image` sharing it is gone.
///
/// Immutable once an `Image` holds it, except through `Image`'s copy-on-write mutation, which
/// writes only into owned storage referenced once; hence `@unchecked Sendable`.
package final class ImageStorage: @unchecked Sendable {
    package let base: UnsafeMutableRawPointer
    package let count: Int
    /// Nil for memory Visage allocated, the caller's release closure for borrowed memory.
    private let deallocator: (@Sendable () -> Void)?

    /// How far `base` lies past the start of its allocation (memory Visage allocated).
    private let offset: Int

    /// Allocates `count` uninitialised bytes, the first `offset` bytes past a 64-byte boundary (0…63).
    package init(byteCount count: Int, offset: Int = 0) {
        precondition((0..<64).contains(offset), "offset \(offset) must be in 0..<64")
        base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) + offset, alignment: 64) + offset
        self.count = count
        self.offset = offset
        deallocator = nil
    }

    package init(borrowing base: UnsafeRawPointer, count: Int, deallocator: @escaping @Sendable () -> Void) {
        self.base = UnsafeMutableRawPointer(mutating: base)
        self.count = count
        self.deallocator = deallocator
        offset = 0
    }

    package var isOwned: Bool { deallocator == nil }

    deinit {
        if let deallocator { deallocator() } else { (base - offset).deallocate() }
    }
}
