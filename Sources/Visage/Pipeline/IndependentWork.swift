import Dispatch

/// Pieces of one image's work that share nothing (accurate mode's windows and turned views, the mesh
/// stage's faces), run side by side on the cores.
///
/// Results come back in the pieces' order, and the first error by that order is thrown, so callers
/// merge exactly what a serial loop would have given: the output is identical, only sooner. Each piece
/// borrows its own interpreter from the runners' pools, which is what makes them independent.
package enum IndependentWork {
    /// Runs every piece on the calling thread, in order: the serial reference the tests compare with.
    @TaskLocal package static var runsSerially = false

    /// `piece(0)` … `piece(count - 1)`, concurrently when there are several.
    static func map<T>(_ count: Int, _ piece: (Int) throws(FaceDetectionError) -> T) throws(FaceDetectionError) -> [T] {
        guard count > 1, !runsSerially else { return try (0 ..< count).map { index throws(FaceDetectionError) in try piece(index) } }
        let slots = UnsafeMutableBufferPointer<Result<T, FaceDetectionError>?>.allocate(capacity: count)
        slots.initialize(repeating: nil)
        defer {
            slots.deinitialize()
            slots.deallocate()
        }
        withoutActuallyEscaping(piece) { piece in
            // concurrentPerform returns when every piece is done, and each writes only its own slot.
            let shared = Unchecked((piece, slots))
            DispatchQueue.concurrentPerform(iterations: count) { index in
                let (piece, slots) = shared.value
                slots[index] = Result { () throws(FaceDetectionError) in try piece(index) }
            }
        }
        var results: [T] = []
        results.reserveCapacity(count)
        for slot in slots {
            switch slot! {
            case .success(let value): results.append(value)
            case .failure(let error): throw error
            }
        }
        return results
    }
}

/// Carries values across `concurrentPerform`'s boundary, which the caller has proven safe.
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
