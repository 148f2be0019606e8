import Foundation

/// A `multipart/form-data` body split into its parts (RFC 7578), over bytes already read within the limit.
struct Multipart {
    struct Part {
        var name: String
        var filename: String?
        var contentType: String?
        var body: Data
    }

    var parts: [Part]

    /// Parses `body` with `boundary`; throws `bad_request` when it is not well-formed multipart.
    init(_ body: Data, boundary: String) throws(ServiceError) {
        let malformed = ServiceError(.badRequest, "the multipart body is malformed")
        guard !boundary.isEmpty, boundary.utf8.count <= 70 else { throw malformed }
        let delimiter = Data("--\(boundary)".utf8)
        let separator = Data("\r\n\r\n".utf8)
        var parts: [Part] = []
        guard var cursor = body.range(of: delimiter)?.upperBound else { throw malformed }
        while true {
            // After a delimiter: "--" ends the body, CRLF starts a part.
            let rest = body[cursor...]
            if rest.starts(with: Data("--".utf8)) { break }
            guard rest.starts(with: Data("\r\n".utf8)) else { throw malformed }
            let headerStart = cursor + 2
            guard let headerEnd = body.range(of: separator, in: headerStart..<body.endIndex) else { throw malformed }
            guard let next = body.range(of: Data("\r\n".utf8) + delimiter, in: headerEnd.upperBound..<body.endIndex) else { throw malformed }
            let headers = String(decoding: body[headerStart..<headerEnd.lowerBound], as: UTF8.self)
            var part = Part(name: "", filename: nil, contentType: nil, body: Data(body[headerEnd.upperBound..<next.lowerBound]))
            for line in headers.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { throw malformed }
                let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if field == "content-disposition" {
                    let parameters = HeaderParameters(value)
                    guard parameters.value.lowercased() == "form-data", let name = parameters["name"] else { throw malformed }
                    part.name = name
                    part.filename = parameters["filename"]
                } else if field == "content-type" {
                    part.contentType = value
                }
            }
            guard !part.name.isEmpty else { throw malformed }
            parts.append(part)
            cursor = next.upperBound
        }
        self.parts = parts
    }

    /// The text of the field `name`, if present.
    func field(_ name: String) -> String? {
        parts.first { $0.name == name && $0.filename == nil }.map { String(decoding: $0.body, as: UTF8.self) }
    }
}

/// A header value with `; key=value` parameters (`multipart/form-data; boundary=x`, `form-data; name="a"`).
struct HeaderParameters {
    var value: String
    var parameters: [String: String] = [:]

    init(_ header: String) {
        let pieces = header.split(separator: ";", omittingEmptySubsequences: true)
        value = pieces.first.map { trimmingWhitespace($0) } ?? ""
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let key = trimmingWhitespace(piece[..<equals]).lowercased()
            var text = trimmingWhitespace(piece[piece.index(after: equals)...])
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
            parameters[key] = text
        }
    }

    subscript(key: String) -> String? { parameters[key] }
}

/// `text` without the leading and trailing scalars of `CharacterSet.whitespaces` (tab, Unicode's space
/// separators, Zs, and U+200B, which Foundation's tables still count among them), as
/// `trimmingCharacters(in: .whitespaces)` gives it (`HeaderParametersTests`). That one goes through
/// NSString: it was about three quarters of `BodyKind`'s time, which every analysis request pays twice
/// (once on the event loop for an early refusal), about 20 µs of CPU in all (perf, session 19).
package func trimmingWhitespace(_ text: Substring) -> String {
    func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t"
            || (scalar.value >= 0x80 && (scalar.properties.generalCategory == .spaceSeparator || scalar == "\u{200B}"))
    }
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isWhitespace($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !isWhitespace($0) })!
    return String(scalars[first...last])
}
