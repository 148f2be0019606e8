import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Visage

/// The service's parsers of untrusted request data behind one public door, for the `service` fuzz target
/// (Fuzz/Targets/service.swift): the code the routes run, from `Content-Type` and query to options,
/// without a server or an inference.
public enum RequestParsing {
    /// Parses a request as `POST path` (`/v1/faces`, `/v1/faces/batch` or `/v1/contours`, with its query)
    /// is parsed before any inference: the body kind from `contentType`, the query, the body (raw,
    /// multipart, or JSON with base64 images) and the face or contour options. Returns the images'
    /// byte counts; throws the error the route answers with.
    public static func analysisRequest(path: String, contentType: String, body: [UInt8]) throws(ServiceError) -> [Int] {
        let head = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: path, headerFields: [.contentType: contentType])
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: body)))
        let batch = request.uri.path == "/v1/faces/batch"
        let kind = try BodyKind(request, allowed: batch ? FacesController.batchKinds : BodyKind.every)
        let upload = try Upload(request, kind: kind, body: ByteBuffer(bytes: body), many: batch)
        let fields = Fields(values: upload.fields)
        if request.uri.path == "/v1/contours" {
            _ = try fields.contourOptions()
        } else {
            _ = try fields.faceOptions()
        }
        return upload.images.map(\.data.count)
    }

    /// Parses a `/v1/track` text message as a connection does before its first frame: the frame time it
    /// sets, or the error message the connection would send.
    public static func trackingMessage(_ text: String) -> (time: Double?, error: ErrorRecord?) {
        TrackController.apply(text, to: TrackController.FrameMailbox())
    }
}
