/// The stable code of every error Visage reports, one table for the library, the CLI's error records
/// and the service's error bodies (`{"error": {"code", "message"}}`), with the HTTP status mapped once.
///
/// Codes never change meaning once published; messages may improve. Map a thrown error with
/// ``ErrorRecord/init(_:)``.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    // The image the caller gave.
    /// The image data holds no bytes.
    case emptyImage = "empty_image"
    /// The bytes are no image format Visage reads.
    case unsupportedFormat = "unsupported_format"
    /// The data ends before the image does.
    case truncatedImage = "truncated_image"
    /// The data is not a valid image of its format.
    case corruptImage = "corrupt_image"
    /// More pixels than the limit allows; checked from the header before decoding.
    case imageTooLarge = "image_too_large"
    /// The format is known, but the run-time library that decodes it is not installed.
    case decoderUnavailable = "decoder_unavailable"
    /// A file or folder could not be read (missing, not a regular file, no permission).
    case unreadableFile = "unreadable_file"

    // Video.
    /// A video stream or file is malformed or ends mid-frame.
    case corruptVideo = "corrupt_video"
    /// The video uses something Visage does not read (format, feature, no video stream).
    case unsupportedVideo = "unsupported_video"
    /// An external tool (ffmpeg) is not installed.
    case toolMissing = "tool_missing"
    /// An external tool failed.
    case toolFailed = "tool_failed"

    // Arguments.
    /// A parameter or option is outside its valid range.
    case invalidParameter = "invalid_parameter"

    // Models and processing.
    /// A model file is missing or not the bundled one.
    case modelMissing = "model_missing"
    /// A model file is malformed.
    case modelInvalid = "model_invalid"
    /// A model uses operators or options Visage does not run.
    case modelUnsupported = "model_unsupported"
    /// A stage failed after the input was accepted (encoding a result, the mesh, the pose).
    case processingFailed = "processing_failed"

    // The service's own.
    /// The request is malformed (bad JSON, base64, multipart, missing image).
    case badRequest = "bad_request"
    /// The API key is missing or wrong.
    case unauthorized = "unauthorized"
    /// No such route.
    case notFound = "not_found"
    /// The route exists, but not for this method.
    case methodNotAllowed = "method_not_allowed"
    /// The body was not received in time.
    case requestTimeout = "request_timeout"
    /// The body is larger than the limit.
    case payloadTooLarge = "payload_too_large"
    /// The request's content type is not one the route reads.
    case unsupportedMediaType = "unsupported_media_type"
    /// Too many requests in flight: try again after `Retry-After`.
    case overloaded = "overloaded"
    /// The service is loading its models, or draining before it stops (`/readyz`).
    case notReady = "not_ready"
    /// The request did not finish within its deadline.
    case deadlineExceeded = "deadline_exceeded"
    /// A fault in Visage itself.
    case internalError = "internal_error"

    /// The HTTP status the service answers with.
    public var httpStatus: Int {
        switch self {
        case .badRequest, .invalidParameter: 400
        case .unauthorized: 401
        case .notFound: 404
        case .methodNotAllowed: 405
        case .requestTimeout: 408
        case .payloadTooLarge: 413
        case .unsupportedMediaType, .unsupportedFormat: 415
        case .emptyImage, .truncatedImage, .corruptImage, .imageTooLarge, .corruptVideo, .unsupportedVideo: 422
        case .overloaded, .notReady, .decoderUnavailable: 503
        case .deadlineExceeded: 504
        case .unreadableFile, .toolMissing, .toolFailed, .modelMissing, .modelInvalid, .modelUnsupported,
             .processingFailed, .internalError: 500
        }
    }
}
