/// ARKit's `ARError`, with ARKit's codes for the failures a Linux session can have. The session reports
/// it through ``ARSessionObserver/session(_:didFailWithError:)``.
public struct ARError: Error, CustomNSError, LocalizedError, Equatable, Sendable {
    public enum Code: Int, Sendable, Hashable {
        /// The configuration cannot run (a bad option value).
        case unsupportedConfiguration = 100
        /// The video input cannot be opened: no such file or device, or ffmpeg missing.
        case sensorUnavailable = 101
        /// The video input or the face models failed while running.
        case sensorFailed = 102
    }

    public static let errorDomain = "com.apple.arkit.error"

    public let code: Code
    /// What failed, in words a user can act on.
    public let reason: String

    public init(_ code: Code, reason: String) {
        (self.code, self.reason) = (code, reason)
    }

    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: reason] }
    public var errorDescription: String? { reason }
}
