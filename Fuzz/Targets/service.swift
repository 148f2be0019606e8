// libFuzzer target: the service's request parsing (RequestParsing): query options, Content-Type,
// raw / multipart / base64-JSON bodies, batch lists, contour options, and /v1/track text messages.
//
// Input: one byte picks the route (0 /v1/faces, 1 /v1/faces/batch, 2 /v1/contours, 3 a tracking text
// message); for the HTTP routes, the query up to the first newline, the Content-Type up to the second,
// then the body.
import Foundation
import VisageService

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzService(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: bytes, count: count)
    let route = input[0] % 4
    let rest = input[1...]
    if route == 3 {
        _ = RequestParsing.trackingMessage(String(decoding: rest, as: UTF8.self))
        return 0
    }
    let lines = rest.split(separator: 10, maxSplits: 2, omittingEmptySubsequences: false)
    let query = lines.count > 0 ? String(decoding: lines[0], as: UTF8.self) : ""
    let contentType = lines.count > 1 ? String(decoding: lines[1], as: UTF8.self) : ""
    let body = lines.count > 2 ? Array(lines[2]) : []
    let path = ["/v1/faces", "/v1/faces/batch", "/v1/contours"][Int(route)] + (query.isEmpty ? "" : "?" + query)
    _ = try? RequestParsing.analysisRequest(path: path, contentType: contentType, body: body)
    return 0
}
