/// An image that could not be analysed, in place of its result: `{"image": …, "error": {"code", "message"}}`.
///
/// `visage detect` and `visage contours` print it for a failed image under `--on-error record` (the
/// default when reading a list of paths), so one corrupt file costs one record, not a whole job.
/// Tell it from a result by its `error` member.
public struct ImageErrorRecord: Codable, Sendable, Equatable {
    /// The image as the caller named it: the path exactly as given.
    public var image: String
    public var error: ErrorRecord

    public init(image: String, error: ErrorRecord) {
        self.image = image
        self.error = error
    }
}
