internal import Visage

/// ARKit's `ARError`, with ARKit's codes for the failures a Linux session can have. The session reports
/// it through ``ARSessionObserver/session(_:didFailWithError:)``, with Visage's stable error code (the
/// table the CLI and the service use) in ``visageCode`` and under the user-info key `VisageErrorCode`.
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
    /// Visage's stable code for the failure (`invalid_parameter`, `video_unreadable` …), nil when
    /// Visage's error table has none for it.
    public let visageCode: String?

    public init(_ code: Code, reason: String, visageCode: String? = nil) {
        (self.code, self.reason, self.visageCode) = (code, reason, visageCode)
    }

    /// An error caused by `underlying`, a Visage error, whose stable code it keeps.
    init(_ code: Code, reason: String, underlying: any Error) {
        self.init(code, reason: reason, visageCode: ErrorRecord(underlying).code.rawValue)
    }

    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: reason]
        if let visageCode { info["VisageErrorCode"] = visageCode }
        return info
    }
    public var errorDescription: String? { reason }
}
