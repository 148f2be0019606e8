import Foundation
import Hummingbird
import Visage

/// A `POST` route that reads an image body through the ``AnalysisGate``: its path, the body kinds it
/// reads (``BodyKind``), and its handler, which is given those kinds for its
/// ``AnalysisGate/serve(_:context:allowed:_:)``. The router and ``EarlyRefusal`` both read the controllers'
/// tables of these, so a route added, renamed or given other body kinds is refused early exactly as the
/// ordinary path would refuse it, from the one declaration here.
struct AnalysisRoute: Sendable {
    let path: String
    let kinds: Set<String>
    let handler: @Sendable (Request, ServiceRequestContext, _ allowed: Set<String>) async throws -> Response

    func add(to router: Router<ServiceRequestContext>) {
        let (handler, kinds) = (self.handler, self.kinds)
        let routerPath = RouterPath(String(path.drop(while: { $0 == "/" })))
        router.post(routerPath) { request, context in
            try await handler(request, context, kinds)
        }
        // Another method is told which one the route takes (405, Allow: POST), not that the path does
        // not exist, which is what 404 "Not Found" says to someone who tries `curl <host>/v1/faces`.
        for method in [HTTPRequest.Method.get, .put, .delete, .patch] {
            let message = "\(method) is not allowed on \(path): it takes POST (its bodies are described at /docs)"
            router.on(routerPath, method: method) { _, _ -> Response in
                throw ServiceError(.methodNotAllowed, message, headers: [.allow: "POST"])
            }
        }
    }
}

/// `POST /v1/faces`, `POST /v1/faces/batch` and `POST /v1/annotate`.
struct FacesController {
    let gate: AnalysisGate
    let maxBatchImages: Int

    /// The routes, registered from this one table (``AnalysisRoute``), which ``EarlyRefusal`` reads too.
    var routes: [AnalysisRoute] {
        [
            AnalysisRoute(path: "/v1/faces", kinds: BodyKind.every, handler: faces),
            AnalysisRoute(path: "/v1/faces/batch", kinds: Self.batchKinds, handler: batch),
            AnalysisRoute(path: "/v1/annotate", kinds: BodyKind.every, handler: annotate),
        ]
    }

    /// One image → the CLI's `--json` object, with `timings`.
    @Sendable func faces(_ request: Request, context: ServiceRequestContext, allowed: Set<String>) async throws -> Response {
        let gate = self.gate
        return try await gate.serve(request, context: context, allowed: allowed) { kind, body in
            let upload = try Upload(request, kind: kind, body: body)
            let options = try Fields(values: upload.fields).faceOptions()
            let (name, data) = upload.images[0]
            let limits = gate.limits
            let analyzer = gate.analyzer
            let brief = analyzer.isBrief(faces: options, data: data)
            var (record, timings) = try await gate.run(context, brief: brief) { checkpoint in
                try analyzer.faces(in: data, name: name, options: options, limits: limits, checkpoint: &checkpoint)
            }
            record.timings = timings
            return try .json(record)
        }
    }

    /// What `POST /v1/faces/batch` reads: no raw body, which holds one image.
    static let batchKinds: Set<String> = ["multipart", "json"]

    /// One entry of a batch: the image's record, or its error.
    struct BatchEntry: Codable {
        var result: FacesRecord?
        var error: ErrorRecord?
    }

    struct BatchRecord: Codable {
        var results: [BatchEntry]
    }

    /// Up to `maxBatchImages` images in multipart parts named `image`, answered in order; one bad image
    /// gives its entry an error and leaves the others alone.
    @Sendable func batch(_ request: Request, context: ServiceRequestContext, allowed: Set<String>) async throws -> Response {
        let (gate, maxImages) = (self.gate, maxBatchImages)
        return try await gate.serve(request, context: context, allowed: allowed) { kind, body in
            let upload = try Upload(request, kind: kind, body: body, many: true)
            guard upload.images.count <= maxImages else {
                throw ServiceError(.invalidParameter, "a batch holds at most \(maxImages) images (got \(upload.images.count))")
            }
            let options = try Fields(values: upload.fields).faceOptions()
            let (limits, analyzer) = (gate.limits, gate.analyzer)
            let images = upload.images
            let (entries, timings) = try await gate.run(context) { checkpoint in
                var entries: [BatchEntry] = []
                for (name, data) in images {
                    do {
                        var record = try analyzer.faces(in: data, name: name, options: options, limits: limits, checkpoint: &checkpoint)
                        record.timings = nil
                        entries.append(BatchEntry(result: record))
                    } catch let error as ServiceError where error.record.code == .deadlineExceeded {
                        throw error
                    } catch is CancellationError {
                        throw CancellationError()
                    } catch {
                        entries.append(BatchEntry(error: ServiceError(from: error).record))
                    }
                }
                return entries
            }
            _ = timings
            return try .json(BatchRecord(results: entries))
        }
    }

    /// The image with its faces drawn in: PNG or SVG by `Accept`; `features` picks the layers as the CLI's flags.
    @Sendable func annotate(_ request: Request, context: ServiceRequestContext, allowed: Set<String>) async throws -> Response {
        let gate = self.gate
        let format: AnnotationOutput = negotiate(request, offered: ["image/png", "image/svg+xml"]) == "image/svg+xml" ? .svg : .png
        return try await gate.serve(request, context: context, allowed: allowed) { kind, body in
            let upload = try Upload(request, kind: kind, body: body)
            let options = try Fields(values: upload.fields).faceOptions()
            let data = upload.images[0].data
            let (limits, analyzer) = (gate.limits, gate.analyzer)
            let (rendered, _) = try await gate.run(context) { checkpoint in
                try analyzer.annotate(data, options: options, format: format, limits: limits, checkpoint: &checkpoint)
            }
            return .data(rendered.data, contentType: rendered.contentType)
        }
    }
}

/// `POST /v1/contours`: JSON, SVG or PNG by `Accept`.
struct ContoursController {
    let gate: AnalysisGate

    var routes: [AnalysisRoute] { [AnalysisRoute(path: "/v1/contours", kinds: BodyKind.every, handler: contours)] }

    @Sendable func contours(_ request: Request, context: ServiceRequestContext, allowed: Set<String>) async throws -> Response {
        let gate = self.gate
        let format: ContourOutput = switch negotiate(request, offered: ["application/json", "image/svg+xml", "image/png"]) {
        case "image/svg+xml": .svg
        case "image/png": .png
        default: .json
        }
        return try await gate.serve(request, context: context, allowed: allowed) { kind, body in
            let upload = try Upload(request, kind: kind, body: body)
            let options = try Fields(values: upload.fields).contourOptions()
            let (name, data) = upload.images[0]
            let (limits, analyzer) = (gate.limits, gate.analyzer)
            let (rendered, _) = try await gate.run(context) { checkpoint in
                try analyzer.contours(in: data, name: name, options: options, format: format, limits: limits, checkpoint: &checkpoint)
            }
            return .data(rendered.data, contentType: rendered.contentType)
        }
    }
}
