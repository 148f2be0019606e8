/// Carries values across `DispatchQueue.concurrentPerform`'s `@Sendable` boundary where the caller has
/// proven the sharing safe: each iteration writes only its own part (a band's rows and flag, a piece's
/// slot). One definition for the decoders' bands and the pipeline's independent pieces.
package struct Unchecked<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
