import Foundation
import Testing
import Yams

/// The service's OpenAPI document, and a check of a response against it: the status must be documented
/// for the operation, and a JSON body must satisfy the schema given for that status and media type.
///
/// The JSON Schema subset Visage's document uses: `$ref`, `type`, `required`, `properties`,
/// `additionalProperties` (false or a schema), `items`, `enum`, `minimum`, `maximum`, `minItems`, `maxItems`.
struct OpenAPIDocument: @unchecked Sendable {
    let root: [String: Any]

    static let shared: OpenAPIDocument = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/VisageService/Resources/openapi.yaml").standardizedFileURL
        let text = try! String(contentsOf: url, encoding: .utf8)
        return OpenAPIDocument(root: try! Yams.load(yaml: text) as! [String: Any])
    }()

    /// Problems with a response to `method path`: an empty list when it matches the document. With
    /// `headers` (name → value), the response's documented headers are checked too: a required one must be
    /// there, and each one there must match its schema (`pattern`, `integer`, `minimum`).
    func problems(method: String, path: String, status: Int, contentType: String?, body: Data, headers: [String: String]? = nil) -> [String] {
        guard let paths = root["paths"] as? [String: Any], let item = paths[path] as? [String: Any],
              let operation = item[method.lowercased()] as? [String: Any],
              let responses = operation["responses"] as? [String: Any]
        else { return ["\(method) \(path) is not in the document"] }
        guard let response = responses["\(status)"].map(resolve) as? [String: Any] else {
            return ["\(method) \(path): status \(status) is not documented"]
        }
        let headerProblems = headers.map { self.headerProblems(response, headers: $0, at: "\(method) \(path) \(status)") } ?? []
        guard let content = response["content"] as? [String: Any] else { return headerProblems }
        return headerProblems + bodyProblems(content, method: method, path: path, status: status, contentType: contentType, body: body)
    }

    private func headerProblems(_ response: [String: Any], headers: [String: String], at place: String) -> [String] {
        var problems: [String] = []
        for (name, node) in response["headers"] as? [String: Any] ?? [:] {
            guard let header = resolve(node) as? [String: Any] else { continue }
            guard let value = headers.first(where: { $0.key.lowercased() == name.lowercased() })?.value else {
                if header["required"] as? Bool == true { problems.append("\(place): header \(name) is missing") }
                continue
            }
            let schema = resolve(header["schema"] ?? [:]) as? [String: Any] ?? [:]
            if let pattern = schema["pattern"] as? String,
               value.range(of: pattern, options: .regularExpression) == nil {
                problems.append("\(place): header \(name) '\(value)' does not match \(pattern)")
            }
            if schema["type"] as? String == "integer" {
                if let number = Int(value) {
                    if let minimum = schema["minimum"] as? Int, number < minimum { problems.append("\(place): header \(name) \(number) < \(minimum)") }
                } else {
                    problems.append("\(place): header \(name) '\(value)' is not an integer")
                }
            }
        }
        return problems
    }

    private func bodyProblems(_ content: [String: Any], method: String, path: String, status: Int, contentType: String?, body: Data) -> [String] {
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard let media = content[type] as? [String: Any] ?? content.first(where: { type.hasPrefix($0.key.replacingOccurrences(of: "*", with: "")) })?.value as? [String: Any]
        else { return ["\(method) \(path) \(status): media type '\(type)' is not documented"] }
        guard type == "application/json", let schema = media["schema"] else { return [] }
        guard let value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return ["\(method) \(path) \(status): the body is not JSON"]
        }
        return validate(value, against: schema, at: "$")
    }

    private func resolve(_ node: Any) -> Any {
        guard let object = node as? [String: Any], let ref = object["$ref"] as? String, ref.hasPrefix("#/") else { return node }
        var current: Any = root
        for key in ref.dropFirst(2).split(separator: "/") {
            current = (current as? [String: Any])?[String(key)] as Any
        }
        return resolve(current)
    }

    func validate(_ value: Any, against schemaNode: Any, at path: String) -> [String] {
        guard let schema = resolve(schemaNode) as? [String: Any] else { return [] }
        var problems: [String] = []
        if let type = schema["type"] as? String, !Self.matches(value, type: type) {
            return ["\(path): expected \(type), got \(Swift.type(of: value))"]
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { "\($0)" == "\(value)" }) {
            problems.append("\(path): \(value) is not one of \(options)")
        }
        if let number = value as? NSNumber, !(value is Bool) {
            if let minimum = (schema["minimum"] as? NSNumber)?.doubleValue, number.doubleValue < minimum { problems.append("\(path): \(number) < \(minimum)") }
            if let maximum = (schema["maximum"] as? NSNumber)?.doubleValue, number.doubleValue > maximum { problems.append("\(path): \(number) > \(maximum)") }
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): missing required \(key)")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, member) in object {
                if let property = properties[key] {
                    problems += validate(member, against: property, at: "\(path).\(key)")
                } else if let additional = schema["additionalProperties"] {
                    if additional as? Bool == false {
                        problems.append("\(path): \(key) is not in the schema")
                    } else if !(additional is Bool) {
                        problems += validate(member, against: additional, at: "\(path).\(key)")
                    }
                }
            }
        }
        if let array = value as? [Any] {
            if let minimum = schema["minItems"] as? Int, array.count < minimum { problems.append("\(path): fewer than \(minimum) items") }
            if let maximum = schema["maxItems"] as? Int, array.count > maximum { problems.append("\(path): more than \(maximum) items") }
            if let items = schema["items"] {
                for (index, element) in array.enumerated() { problems += validate(element, against: items, at: "\(path)[\(index)]") }
            }
        }
        return problems
    }

    private static func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        case "boolean": value is Bool || (value as? NSNumber).map { "\($0)" == "true" || "\($0)" == "false" } == true
        case "integer": (value as? NSNumber).map { $0.doubleValue == $0.doubleValue.rounded() } ?? false
        case "number": value is NSNumber
        case "null": value is NSNull
        default: true
        }
    }
}
