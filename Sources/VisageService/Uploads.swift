import Foundation
import Hummingbird
import Visage

/// How a request carries its image: raw bytes, multipart form data or JSON with base64.
enum BodyKind: Equatable {
    /// Every kind a route can read: raw bytes, multipart field `image`, JSON base64.
    static let every: Set<String> = ["raw", "multipart", "json"]

    /// `image/*` or `application/octet-stream`: the body is the image.
    case raw
    case multipart(boundary: String)
    case json

    /// The kind named by `Content-Type`; `unsupported_media_type` (415) for anything else.
    init(_ request: Request, allowed: Set<String> = BodyKind.every) throws(ServiceError) {
        try self.init(headers: request.headers, allowed: allowed)
    }

    /// The same, from the header fields alone (``EarlyRefusal`` reads them on the event loop).
    init(headers: HTTPFields, allowed: Set<String> = BodyKind.every) throws(ServiceError) {
        let header = headers[.contentType] ?? ""
        let parameters = HeaderParameters(header)
        let type = parameters.value.lowercased()
        if type == "multipart/form-data", allowed.contains("multipart") {
            guard let boundary = parameters["boundary"], !boundary.isEmpty else {
                throw ServiceError(.badRequest, "multipart/form-data needs a boundary parameter")
            }
            self = .multipart(boundary: boundary)
        } else if type == "application/json", allowed.contains("json") {
            self = .json
        } else if type.hasPrefix("image/") || type == "application/octet-stream", allowed.contains("raw") {
            self = .raw
        } else {
            let accepted = [
                allowed.contains("raw") ? "image/* or application/octet-stream" : nil,
                allowed.contains("multipart") ? "multipart/form-data" : nil, allowed.contains("json") ? "application/json" : nil,
            ].compactMap { $0 }
            throw ServiceError(
                .unsupportedMediaType,
                "Content-Type \(type.isEmpty ? "(none)" : "'\(type.prefix(100))'") is not accepted here; send " + accepted.joined(separator: ", "))
        }
    }
}

/// The images of a request and its option fields (query parameters, overridden by form or JSON fields).
struct Upload {
    var images: [(name: String, data: Data)] = []
    var fields: [String: String] = [:]

    /// Splits `body` by `kind`. `field` is the multipart or JSON name of the image (`image`); with
    /// `many`, every part of that name is an image, in order (the batch).
    init(_ request: Request, kind: BodyKind, body: ByteBuffer, many: Bool = false) throws(ServiceError) {
        for (key, value) in request.uri.queryParameters {
            let key = String(key)
            fields[key] = fields[key].map { $0 + "," + String(value) } ?? String(value)
        }
        let data = Data(buffer: body, byteTransferStrategy: .noCopy)
        switch kind {
        case .raw:
            images = [(fields["name"] ?? "image", data)]
        case .multipart(let boundary):
            let form = try Multipart(data, boundary: boundary)
            var formFields: [String: String] = [:]
            for part in form.parts {
                if part.name == "image" || (many && part.name == "images") {
                    images.append((part.filename.map { Self.baseName($0) } ?? "image", part.body))
                } else if part.filename == nil {
                    let text = String(decoding: part.body, as: UTF8.self)
                    formFields[part.name] = formFields[part.name].map { $0 + "," + text } ?? text
                }
            }
            fields.merge(formFields) { $1 }
        case .json:
            guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
                throw ServiceError(.badRequest, "the body is not a JSON object")
            }
            for (key, value) in object where key != "image" && key != "images" {
                guard let text = value.fieldText else {
                    throw ServiceError(.badRequest, "the JSON field '\(key.prefix(40))' must be a string, number, boolean or list of them")
                }
                fields[key] = text
            }
            let encoded: [JSONValue] = switch (many, object[many ? "images" : "image"]) {
            case (true, .array(let list)?): list
            case (false, let value?): [value]
            default: []
            }
            for (index, item) in encoded.enumerated() {
                guard case .string(let text) = item, let decoded = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                    throw ServiceError(.badRequest, "\(many ? "images[\(index)]" : "image") must be a base64 string")
                }
                images.append((fields["name"] ?? "image", decoded))
            }
        }
        guard !images.isEmpty else {
            throw ServiceError(.badRequest, many ? "no images: send parts named 'image'" : "no image: send its bytes, a multipart part 'image', or JSON {\"image\": \"<base64>\"}")
        }
    }

    /// The last path component of an uploaded file name: no client folder ends up in a response.
    static func baseName(_ name: String) -> String {
        let base = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return base.isEmpty ? "image" : String(base.prefix(200))
    }
}

/// Option values read from fields, each with a clear `invalid_parameter` error.
struct Fields {
    var values: [String: String]

    func string(_ key: String) -> String? { values[key].flatMap { $0.isEmpty ? nil : $0 } }

    func double(_ key: String, in range: ClosedRange<Double>) throws(ServiceError) -> Double? {
        guard let text = string(key) else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw invalid(key, text, "must be a number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws(ServiceError) -> Int? {
        guard let text = string(key) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw invalid(key, text, "must be an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    func bool(_ key: String) throws(ServiceError) -> Bool? {
        guard let text = string(key) else { return nil }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw invalid(key, text, "must be true or false")
        }
    }

    func range(_ key: String) throws(ServiceError) -> ClosedRange<Float>? {
        guard let text = string(key) else { return nil }
        let parts = text.contains("...") ? text.components(separatedBy: "...") : text.components(separatedBy: ",")
        guard parts.count == 2, let low = Float(parts[0]), let high = Float(parts[1]), low.isFinite, high.isFinite, low <= high else {
            throw invalid(key, text, "must be LOW...HIGH with LOW ≤ HIGH, such as 0.2...0.7")
        }
        return low...high
    }

    func invalid(_ key: String, _ value: String, _ rule: String) -> ServiceError {
        ServiceError(.invalidParameter, "\(key) '\(value.prefix(40))' \(rule)")
    }

    /// `mode`, `minFaceSize`, `maxFaces` and `features`, as `visage detect`'s flags.
    func faceOptions() throws(ServiceError) -> FaceOptions {
        var options = FaceOptions()
        if let mode = string("mode") {
            guard let value = FaceDetectorOptions.PerformanceMode(rawValue: mode) else { throw invalid("mode", mode, "must be fast or accurate") }
            options.mode = value
        }
        options.minFaceSize = try double("minFaceSize", in: 0...1) ?? options.minFaceSize
        options.maxFaces = try int("maxFaces", in: 1...100)
        if let features = string("features") {
            do {
                options.features = try FaceFeatures(names: features.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            } catch {
                throw ServiceError(.invalidParameter, "\(error)")
            }
        }
        return options
    }

    /// `DetectContoursRequest`'s parameters and contour art's, as `visage contours`' options.
    func contourOptions() throws(ServiceError) -> ContourOptions {
        var options = ContourOptions()
        var request = DetectContoursRequest()
        if let adjustment = try double("contrastAdjustment", in: 0...3) { request.contrastAdjustment = Float(adjustment) }
        if let pivot = string("contrastPivot") {
            if pivot == "auto" {
                request.contrastPivot = nil
            } else {
                guard let value = Float(pivot), value.isFinite, (0...1).contains(value) else {
                    throw invalid("contrastPivot", pivot, "must be a number in 0…1 or auto")
                }
                request.contrastPivot = value
            }
        }
        if let dark = try bool("detectsDarkOnLight") { request.detectsDarkOnLight = dark }
        if let dimension = try int("maximumImageDimension", in: 64...8192) { request.maximumImageDimension = dimension }
        options.epsilon = try double("epsilon", in: 0...1).map(Float.init)
        options.overlay = try bool("overlay") ?? false
        do {
            try request.validate()
        } catch {
            throw ServiceError(.invalidParameter, "\(error)")
        }
        options.request = request
        if try bool("art") == true {
            let art = ContourArt(
                pivotRange: try range("pivotRange") ?? 0.2...0.7, adjustmentRange: try range("adjustRange") ?? 0.5...3,
                steps: try int("steps", in: 1...32) ?? 6, iouThreshold: try double("iou", in: 0...1) ?? 0.9,
                epsilon: options.epsilon ?? 0.001, detectsDarkOnLight: request.detectsDarkOnLight,
                maximumImageDimension: request.maximumImageDimension)
            do {
                _ = try art.requests()
            } catch {
                throw ServiceError(.invalidParameter, "\(error)")
            }
            options.art = art
        }
        return options
    }
}

/// Any JSON value, for reading option fields of any type.
enum JSONValue: Decodable {
    case string(String), number(Double), bool(Bool), array([JSONValue]), object([String: JSONValue]), null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// The value as a field's text: lists joined by commas, as in a query.
    var fieldText: String? {
        switch self {
        case .string(let text): text
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .array(let list):
            list.allSatisfy({ if case .array = $0 { false } else if case .object = $0 { false } else { true } })
                ? list.compactMap(\.fieldText).joined(separator: ",") : nil
        case .object, .null: nil
        }
    }
}
