import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Visage

/// An error the service answers with: the library's ``ErrorRecord`` as `{"error": {"code", "message"}}`,
/// with the status its ``ErrorCode`` maps to, plus headers such as `Retry-After`.
public struct ServiceError: Error, HTTPResponseError, CustomStringConvertible {
    public var record: ErrorRecord
    public var headers: HTTPFields

    public init(_ code: ErrorCode, _ message: String, headers: HTTPFields = [:]) {
        self.record = ErrorRecord(code: code, message: message)
        self.headers = headers
    }

    public init(_ record: ErrorRecord) {
        self.record = record
        self.headers = [:]
    }

    /// Any error as the service reports it: library errors keep their code, Hummingbird's HTTP errors
    /// map by status, everything else is `internal_error` with a message that carries no input data.
    public init(from error: any Error) {
        switch error {
        case let error as ServiceError: self = error
        case let error as HTTPError:
            let code: ErrorCode = switch error.status.code {
            case 400: .badRequest
            case 401: .unauthorized
            case 404: .notFound
            case 405: .methodNotAllowed
            case 408: .requestTimeout
            case 413: .payloadTooLarge
            case 415: .unsupportedMediaType
            case 503: .overloaded
            default: .internalError
            }
            self.init(code, error.body ?? error.status.reasonPhrase, headers: error.headers)
        case is NIOTooManyBytesError:
            self.init(.payloadTooLarge, "the request body is larger than the limit")
        case is DecodingError:
            self.init(.badRequest, "the JSON body does not match the request's schema")
        default:
            var record = ErrorRecord(error)
            // The library names the first bytes it saw; the service repeats nothing of an upload.
            if record.code == .unsupportedFormat {
                record.message = "the bytes are in no image format Visage reads: " + ImageFileFormat.allCommonNames
            }
            self.init(record)
        }
    }

    public var status: HTTPResponse.Status { .init(code: record.code.httpStatus) }
    public var description: String { "\(record.code.rawValue): \(record.message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        let body = try SortedJSON.encode(ErrorBody(error: record))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The body every error has.
    struct ErrorBody: Codable { var error: ErrorRecord }
}
