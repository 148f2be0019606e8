import Foundation
import VisageModels
import VisageNN

/// An error as the CLI's error records and the service's error bodies carry it.
public struct ErrorRecord: Codable, Sendable, Equatable, Error, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }

    /// Any error Visage throws, with its stable code; an error Visage does not know is `internal_error`.
    public init(_ error: any Error) {
        if let record = error as? ErrorRecord {
            self = record
            return
        }
        self.init(code: Self.code(of: error), message: "\(error)")
    }

    public var description: String { message }

    private static func code(of error: any Error) -> ErrorCode {
        switch error {
        case let error as ImageError: code(of: error)
        case let error as VideoError: code(of: error)
        case let error as ContoursError:
            switch error {
            case .image(let image): code(of: image)
            case .invalidParameter, .indexOutOfRange, .invalidIndexPath: .invalidParameter
            }
        case let error as FaceDetectionError:
            switch error {
            case .image(let image): code(of: image)
            case .model: .modelMissing
            case .invalidParameter: .invalidParameter
            case .landmarks, .captureQuality: .processingFailed
            }
        case let error as TrackingError:
            switch error {
            case .invalidParameter: .invalidParameter
            case .detection(let detection): code(of: detection)
            case .landmarks: .processingFailed
            case .video(let video): code(of: video)
            }
        case let error as ModelError:
            switch error.kind {
            case .modelInvalid: .modelInvalid
            case .unsupportedOperator, .unsupportedOption: .modelUnsupported
            case .unknownTensor: .invalidParameter
            }
        case let error as CustomModelError:
            switch error {
            case .unreadable: .unreadableFile
            case .unsupportedInput: .modelUnsupported
            case .inputSizeMismatch, .invalidParameter: .invalidParameter
            }
        case is ModelFileError: .modelMissing
        case is BlendshapeError, is CaptureQualityError, is FaceGeometryError, is LandmarkError: .processingFailed
        case is CancellationError: .deadlineExceeded
        default: .internalError
        }
    }

    private static func code(of error: ImageError) -> ErrorCode {
        switch error {
        case .empty: .emptyImage
        case .unsupportedFormat, .formatNotSupported: .unsupportedFormat
        case .codecUnavailable: .decoderUnavailable
        case .truncated: .truncatedImage
        case .corrupt: .corruptImage
        case .imageTooLarge: .imageTooLarge
        case .notAFile, .unreadable: .unreadableFile
        case .invalidParameter: .invalidParameter
        case .encodingFailed: .processingFailed
        }
    }

    private static func code(of error: VideoError) -> ErrorCode {
        switch error {
        case .invalidParameter: .invalidParameter
        case .unreadable, .emptyFolder: .unreadableFile
        case .corrupt, .truncatedFrame, .frameSizeChanged, .unreadableFrame: .corruptVideo
        case .unsupported, .noVideoStream: .unsupportedVideo
        case .toolMissing: .toolMissing
        case .toolFailed: .toolFailed
        }
    }
}
