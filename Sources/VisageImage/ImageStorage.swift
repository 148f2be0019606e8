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

    /// Allocates `count` uninitialised bytes.
    package init(byteCount count: Int) {
        base = .allocate(byteCount: max(count, 1), alignment: 64)
        self.count = count
        deallocator = nil
    }

    package init(borrowing base: UnsafeRawPointer, count: Int, deallocator: @escaping @Sendable () -> Void) {
        self.base = UnsafeMutableRawPointer(mutating: base)
        self.count = count
        self.deallocator = deallocator
    }

    package var isOwned: Bool { deallocator == nil }

    deinit {
        if let deallocator { deallocator() } else { base.deallocate() }
    }
}
