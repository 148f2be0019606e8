import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Visage
import VisageService

/// Every endpoint, option and error code through Hummingbird's in-process router, with the fake analyzer
/// (no models): the wiring, the limits and the error bodies, each response checked against the OpenAPI document.
@Suite struct RouterTests {
    typealias T = ServiceTesting

    @Test func healthReadinessAndDocuments() async throws {
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer())
        try await app.test(.router) { client in
            try await T.waitUntilReady(client)
            for path in ["/healthz", "/readyz"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok)
                T.expectDocumented(response, "GET", path)
            }
            let yaml = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(yaml.status == .ok)
            #expect(String(buffer: yaml.body).hasPrefix("openapi: 3.1.0"))
            let docs = try await client.execute(uri: "/docs", method: .get)
            #expect(docs.status == .ok)
            #expect(String(buffer: docs.body).contains("openapi.yaml"))
            // The page's files, found without Bundle.module.
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            let missing = try await client.execute(uri: "/no/such/thing", method: .get)
            #expect(missing.status == .notFound)
            #expect(T.errorCode(missing) == "not_found")
        }
    }

    @Test func readyzIsNotReadyUntilTheModelsAreWarm() async throws {
        let gate = DispatchSemaphore(value: 0)
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer(warmUpGate: gate))
        try await app.test(.router) { client in
            let early = try await client.execute(uri: "/readyz", method: .get)
            #expect(early.status == .serviceUnavailable)
            #expect(T.errorCode(early) == "not_ready")
            T.expectDocumented(early, "GET", "/readyz")
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            gate.signal()
            try await T.waitUntilReady(client)
        }
    }

    @Test func facesFromRawBytesMultipartAndJSONWithOptions() async throws {
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer())
        try await app.test(.router) { client in
            let image = Data([0xFF, 0xD8, 0xFF, 0xE0])
            let raw = try await client.execute(
                uri: "/v1/faces?mode=accurate&minFaceSize=0.05&maxFaces=3&features=landmarks,mesh&name=me.jpg", method: .post,
                headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: image))
            #expect(raw.status == .ok)
            T.expectDocumented(raw, "POST", "/v1/faces")
            let record = try JSONDecoder().decode(FacesRecord.self, from: Data(buffer: raw.body))
            #expect(record.image == "me.jpg")
            #expect(record.faces == FakeAnalyzer.record(name: "").faces)
            #expect(record.timings?.map(\.stage) == ["fake 0", "fake 1"])

            let (form, type) = T.multipart([("image", "folder/photo.png", image), ("mode", nil, Data("fast".utf8)), ("features", nil, Data("classify".utf8))])
            let multipart = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: type], body: form)
            #expect(multipart.status == .ok)
            T.expectDocumented(multipart, "POST", "/v1/faces")
            #expect(T.json(multipart)?["image"] as? String == "photo.png")

            let body = try JSONSerialization.data(withJSONObject: ["image": image.base64EncodedString(), "maxFaces": 2, "features": ["quality"]])
            let json = try await client.execute(
                uri: "/v1/faces", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body))
            #expect(json.status == .ok)
            T.expectDocumented(json, "POST", "/v1/faces")
        }
    }

    @Test(arguments: [
        ("mode=slow", "invalid_parameter"), ("minFaceSize=2", "invalid_parameter"), ("maxFaces=0", "invalid_parameter"),
        ("features=mesh,teeth", "invalid_parameter"), ("minFaceSize=abc", "invalid_parameter"),
    ])
    func badOptionsAre400(query: String, code: String) async throws {
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer())
        try await app.test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/faces?\(query)", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(bytes: [1, 2, 3]))
            #expect(response.status == .badRequest)
            #expect(T.errorCode(response) == code)
            T.expectDocumented(response, "POST", "/v1/faces")
        }
    }

    @Test func malformedBodiesAndMediaTypes() async throws {
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer())
        try await app.test(.router) { client in
            let cases: [(HTTPFields, String, HTTPResponse.Status, String)] = [
                ([.contentType: "text/plain"], "hello", .unsupportedMediaType, "unsupported_media_type"),
                ([:], "hello", .unsupportedMediaType, "unsupported_media_type"),
                ([.contentType: "application/json"], "{not json", .badRequest, "bad_request"),
                ([.contentType: "application/json"], "{\"image\": 5}", .badRequest, "bad_request"),
                ([.contentType: "application/json"], "{\"mode\": \"fast\"}", .badRequest, "bad_request"),
                ([.contentType: "multipart/form-data"], "x", .badRequest, "bad_request"),
                ([.contentType: "multipart/form-data; boundary=b"], "--b\r\nno headers end", .badRequest, "bad_request"),
                ([.contentType: "image/png"], "bad image", .unsupportedMediaType, "unsupported_format"),
            ]
            for (headers, body, status, code) in cases {
                let response = try await client.execute(uri: "/v1/faces", method: .post, headers: headers, body: ByteBuffer(string: body))
                #expect(response.status == status, "\(headers) \(body)")
                #expect(T.errorCode(response) == code, "\(headers) \(body)")
                T.expectDocumented(response, "POST", "/v1/faces")
            }
        }
    }

    /// Bytes in no format the service reads are answered with the formats it does read, in words an HTTP
    /// client can act on (the message once ended "and those `visage info` lists", a command such a client
    /// may not have), and without repeating anything of the upload.
    @Test func unsupportedFormatNamesTheFormatsRead() async throws {
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer())
        try await app.test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/faces", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(string: "bad image"))
            #expect(response.status == .unsupportedMediaType)
            #expect(T.errorCode(response) == "unsupported_format")
            let message = try #require((T.json(response)?["error"] as? [String: Any])?["message"] as? String)
            for format in ImageFileFormat.allCases {
                #expect(message.contains(format.commonNames), "\(message)")
            }
            #expect(!message.contains("visage info") && !message.contains("62 61 64"), "\(message)")
        }
    }

    /// `curl localhost:8080/v1/faces` (a GET) is told the route takes POST, with `Allow`, rather than
    /// 404 "Not Found", which reads as if the path did not exist.
    @Test func anotherMethodOnAnAnalysisRouteIs405() async throws {
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer())
        try await app.test(.router) { client in
            for path in ["/v1/faces", "/v1/faces/batch", "/v1/annotate", "/v1/contours"] {
                for method in [HTTPRequest.Method.get, .put, .delete] {
                    let response = try await client.execute(uri: path, method: method)
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(T.errorCode(response) == "method_not_allowed", "\(method) \(path)")
                    #expect(response.headers[.allow] == "POST", "\(method) \(path)")
                    let message = (T.json(response)?["error"] as? [String: Any])?["message"] as? String
                    #expect(message?.contains("POST") == true, "\(String(describing: message))")
                }
            }
            #expect(try await client.execute(uri: "/v1/nothing", method: .get).status == .notFound)
        }
    }

    @Test func bodyLimitIs413FromTheHeaderAndFromTheStream() async throws {
        let app = try buildApplication(T.configuration { $0.maxBodyBytes = 1000 }, analyzer: FakeAnalyzer())
        try await app.test(.router) { client in
            // The router test client declares Content-Length: refused before reading.
            let response = try await client.execute(
                uri: "/v1/faces", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(repeating: 7, count: 1001))
            #expect(response.status == .contentTooLarge)
            #expect(T.errorCode(response) == "payload_too_large")
            T.expectDocumented(response, "POST", "/v1/faces")
            let fits = try await client.execute(
                uri: "/v1/faces", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(repeating: 7, count: 1000))
            #expect(fits.status == .ok)
        }
    }

    @Test func batchAnswersEveryImageInOrderWithPerImageErrors() async throws {
        let app = try buildApplication(T.configuration { $0.maxBatchImages = 3 }, analyzer: FakeAnalyzer())
        try await app.test(.router) { client in
            let good = Data([0x89, 0x50])
            let (form, type) = T.multipart([("image", "a.png", good), ("image", "b.png", Data("bad".utf8)), ("image", "c.png", good)])
            let response = try await client.execute(uri: "/v1/faces/batch?features=mesh", method: .post, headers: [.contentType: type], body: form)
            #expect(response.status == .ok)
            T.expectDocumented(response, "POST", "/v1/faces/batch")
            let results = T.json(response)?["results"] as? [[String: Any]] ?? []
            try #require(results.count == 3)
            #expect((results[0]["result"] as? [String: Any])?["image"] as? String == "a.png")
            #expect((results[1]["error"] as? [String: Any])?["code"] as? String == "unsupported_format")
            #expect((results[2]["result"] as? [String: Any])?["image"] as? String == "c.png")

            let (tooMany, type2) = T.multipart((0..<4).map { ("image", "\($0).png", good) })
            let refused = try await client.execute(uri: "/v1/faces/batch", method: .post, headers: [.contentType: type2], body: tooMany)
            #expect(refused.status == .badRequest)
            #expect(T.errorCode(refused) == "invalid_parameter")
            T.expectDocumented(refused, "POST", "/v1/faces/batch")

            let raw = try await client.execute(uri: "/v1/faces/batch", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(bytes: good))
            #expect(raw.status == .unsupportedMediaType)
            T.expectDocumented(raw, "POST", "/v1/faces/batch")
        }
    }

    @Test func contoursAndAnnotateNegotiateAndValidate() async throws {
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer())
        try await app.test(.router) { client in
            let image = ByteBuffer(bytes: [1, 2, 3])
            let contours = try await client.execute(
                uri: "/v1/contours?contrastPivot=auto&epsilon=0.01&art=true&pivotRange=0.3...0.6&steps=3&iou=0.8", method: .post,
                headers: [.contentType: "image/png"], body: image)
            #expect(contours.status == .ok)
            T.expectDocumented(contours, "POST", "/v1/contours")
            for query in ["contrastAdjustment=9", "contrastPivot=2", "pivotRange=0.7...0.2&art=true", "steps=0&art=true", "detectsDarkOnLight=maybe"] {
                let bad = try await client.execute(uri: "/v1/contours?\(query)", method: .post, headers: [.contentType: "image/png"], body: image)
                #expect(bad.status == .badRequest, "\(query)")
                #expect(T.errorCode(bad) == "invalid_parameter", "\(query)")
                T.expectDocumented(bad, "POST", "/v1/contours")
            }
            let annotated = try await client.execute(
                uri: "/v1/annotate?features=landmarks", method: .post, headers: [.contentType: "image/png", .accept: "image/svg+xml"], body: image)
            #expect(annotated.status == .ok)
            #expect(annotated.headers[.contentType] == "image/svg+xml")
            T.expectDocumented(annotated, "POST", "/v1/annotate")
        }
    }

    @Test func apiKeyGuardsTheAPIAndMetricsButNotProbesOrDocs() async throws {
        let app = try buildApplication(T.configuration { $0.apiKey = "s3cret" }, analyzer: FakeAnalyzer())
        try await app.test(.router) { client in
            let image = ByteBuffer(bytes: [1])
            let none = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: "image/png"], body: image)
            #expect(none.status == .unauthorized)
            #expect(T.errorCode(none) == "unauthorized")
            T.expectDocumented(none, "POST", "/v1/faces")
            let wrong = try await client.execute(uri: "/metrics", method: .get, headers: [HTTPField.Name("X-API-Key")!: "s3cre"])
            #expect(wrong.status == .unauthorized)
            let key = try await client.execute(
                uri: "/v1/faces", method: .post, headers: [.contentType: "image/png", HTTPField.Name("X-API-Key")!: "s3cret"], body: image)
            #expect(key.status == .ok)
            let bearer = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer s3cret"])
            #expect(bearer.status == .ok)
            for path in ["/healthz", "/openapi.yaml", "/docs", "/"] {
                #expect(try await client.execute(uri: path, method: .get).status == .ok, "\(path)")
            }
        }
    }

    @Test func metricsCountRequestsByRoutePatternWithoutRequestData() async throws {
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer())
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/v1/faces?name=secret-name.jpg", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(bytes: [1]))
            _ = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: "text/plain"], body: ByteBuffer(bytes: [1]))
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(metrics.status == .ok)
            let text = String(buffer: metrics.body)
            #expect(text.contains(#"visage_http_requests_total{route="/v1/faces",method="POST",status="200"} 1"#))
            #expect(text.contains(#"visage_http_requests_total{route="/v1/faces",method="POST",status="415"} 1"#))
            #expect(text.contains("visage_http_request_duration_seconds_bucket"))
            #expect(text.contains(#"visage_stage_seconds_count{stage="fake 0"}"#))
            #expect(text.contains("visage_http_requests_in_flight"))
            // ServiceTesting's limits: 2 inferences, 2 queue places.
            #expect(text.contains("visage_inference_slots 2"))
            #expect(text.contains("visage_inference_queue_places 2"))
            #expect(!text.contains("secret-name"))
            // Every line is a comment or `name{labels} value`: Prometheus text.
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                #expect(line.wholeMatch(of: /[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? [-+0-9.eE]+|[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? \+Inf/) != nil, "\(line)")
            }
        }
    }
}
