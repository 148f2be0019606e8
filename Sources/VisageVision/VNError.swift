import Foundation
import Visage

/// Vision's error domain.
public let VNErrorDomain = "com.apple.Vision"

/// Vision's error codes, as Swift imports `VNErrorCode` under `VNErrorDomain`.
///
/// What requests and handlers throw (and pass to completion handlers) is an `NSError` in
/// `VNErrorDomain`, as Vision's Objective-C code throws: `catch let error as NSError` and
/// `error.localizedDescription` work as on iOS, and so do `catch VNError.requestCancelled` and
/// `VNError(error)?.code`. (On Linux a Swift error struct cannot be caught `as NSError`, so it is not thrown.)
public struct VNError: Error, CustomNSError, CustomStringConvertible, Sendable {
    /// Apple's codes with Apple's raw values.
    public enum Code: Int, Sendable, Hashable {
        case turiCoreErrorCode = -1
        case OK = 0
        case requestCancelled = 1
        case invalidFormat = 2
        case operationFailed = 3
        case outOfBoundsError = 4
        case invalidOption = 5
        case ioError = 6
        case missingOption = 7
        case notImplemented = 8
        case internalError = 9
        case outOfMemory = 10
        case unknownError = 11
        case invalidOperation = 12
        case invalidImage = 13
        case invalidArgument = 14
        case invalidModel = 15
        case unsupportedRevision = 16
        case dataUnavailable = 17
        case timeStampNotFound = 18
        case unsupportedRequest = 19
        case timeout = 20
        case unsupportedComputeStage = 21
        case unsupportedComputeDevice = 22
    }

    public let code: Code
    /// What went wrong, in Visage's words (the value at fault and the rule it broke).
    public let message: String
    /// Visage's stable code for the failure (the one the CLI and the service report), when Visage raised it.
    public let visageCode: ErrorCode?

    /// The `NSError` user-info key under which ``visageCode``'s raw value travels.
    public static let visageCodeKey = "VisageErrorCode"

    public init(_ code: Code, _ message: String, visageCode: ErrorCode? = nil) {
        self.code = code
        self.message = message
        self.visageCode = visageCode
    }

    public static var errorDomain: String { VNErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let visageCode { info[Self.visageCodeKey] = visageCode.rawValue }
        return info
    }
    public var description: String { "VNError \(code) (\(code.rawValue)): \(message)" }

    /// The error as Vision throws it: an `NSError` in `VNErrorDomain` with the message as its description.
    public var nsError: NSError {
        NSError(domain: VNErrorDomain, code: code.rawValue, userInfo: errorUserInfo)
    }

    /// The Vision error an error is, when it is one (an `NSError` in `VNErrorDomain`, or a `VNError`).
    public init?(_ error: any Error) {
        if let error = error as? VNError {
            self = error
            return
        }
        let error = error as NSError
        guard error.domain == VNErrorDomain, let code = Code(rawValue: error.code) else { return nil }
        self.init(code, error.localizedDescription,
                  visageCode: (error.userInfo[Self.visageCodeKey] as? String).flatMap(ErrorCode.init(rawValue:)))
    }

    /// Visage's error under the code Vision uses for that kind of failure, keeping Visage's own stable
    /// code (the shared error table): unreadable files are `ioError`, undecodable data `invalidImage`,
    /// bad parameters `invalidArgument` (a contour request's `invalidOption`, a contour index
    /// `outOfBoundsError`), model files `invalidModel`, a failed stage `operationFailed`.
    init(visage error: any Error) {
        let record = ErrorRecord(error)
        let code: Code
        switch error {
        case ContoursError.invalidParameter: code = .invalidOption
        case ContoursError.indexOutOfRange, ContoursError.invalidIndexPath: code = .outOfBoundsError
        default:
            switch record.code {
            case .unreadableFile: code = .ioError
            case .emptyImage, .unsupportedFormat, .truncatedImage, .corruptImage, .imageTooLarge, .decoderUnavailable:
                code = .invalidImage
            case .invalidParameter: code = .invalidArgument
            case .modelMissing, .modelInvalid, .modelUnsupported: code = .invalidModel
            case .processingFailed: code = .operationFailed
            case .deadlineExceeded: code = .timeout
            default: code = .internalError
            }
        }
        self.init(code, record.message, visageCode: record.code)
    }
}

extension VNError {
    // The codes as static members, as Swift imports an error enum: `catch VNError.requestCancelled`.
    public static var turiCoreErrorCode: Code { .turiCoreErrorCode }
    public static var OK: Code { .OK }
    public static var requestCancelled: Code { .requestCancelled }
    public static var invalidFormat: Code { .invalidFormat }
    public static var operationFailed: Code { .operationFailed }
    public static var outOfBoundsError: Code { .outOfBoundsError }
    public static var invalidOption: Code { .invalidOption }
    public static var ioError: Code { .ioError }
    public static var missingOption: Code { .missingOption }
    public static var notImplemented: Code { .notImplemented }
    public static var internalError: Code { .internalError }
    public static var outOfMemory: Code { .outOfMemory }
    public static var unknownError: Code { .unknownError }
    public static var invalidOperation: Code { .invalidOperation }
    public static var invalidImage: Code { .invalidImage }
    public static var invalidArgument: Code { .invalidArgument }
    public static var invalidModel: Code { .invalidModel }
    public static var unsupportedRevision: Code { .unsupportedRevision }
    public static var dataUnavailable: Code { .dataUnavailable }
    public static var timeStampNotFound: Code { .timeStampNotFound }
    public static var unsupportedRequest: Code { .unsupportedRequest }
    public static var timeout: Code { .timeout }
    public static var unsupportedComputeStage: Code { .unsupportedComputeStage }
    public static var unsupportedComputeDevice: Code { .unsupportedComputeDevice }
}

/// Lets `catch VNError.requestCancelled` match, as Swift's bridged error codes do.
public func ~= (code: VNError.Code, error: any Error) -> Bool {
    VNError(error)?.code == code
}

/// The name Objective-C code and older Swift code use for the codes.
public typealias VNErrorCode = VNError.Code
