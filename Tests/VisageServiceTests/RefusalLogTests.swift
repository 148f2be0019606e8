import Foundation
import Logging
import Testing
import VisageService

/// A full service's 503s are logged one line a second, not one line each: the first refusal as an
/// ordinary "answered" line, the others of that second as one "refused" line with their count.
@Suite(.serialized) struct RefusalLogTests {
    typealias T = ServiceTesting

    /// Log lines kept in memory, by message and metadata.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [(message: String, metadata: [String: String])] = []
        func append(_ message: String, _ metadata: [String: String]) { lock.withLock { lines.append((message, metadata)) } }
        var all: [(message: String, metadata: [String: String])] { lock.withLock { lines } }
    }

    struct Capture: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            lines.append("\(event.message)", (event.metadata ?? [:]).mapValues { "\($0)" })
        }
    }

    /// Six refusals on idle connections (answered on the event loop), four to `/v1/faces` and two to
    /// `/v1/contours`, and one pipelined behind a health check (answered the ordinary way), within a
    /// second: one "answered" 503 line, then one "refused" line per route counting the others; every 503
    /// still counted in `/metrics`.
    @available(macOS 15, *)
    @Test func refusalsWithinASecondAreLoggedTogether() async throws {
        let lines = Lines()
        let logger = Logger(label: "test") { _ in Capture(lines: lines) }
        let analyzer = FakeAnalyzer(stageDelay: .milliseconds(100), stages: 2, longStages: 100)
        let app = try buildApplication(
            T.configuration { $0.maxConcurrentInferences = 1; $0.queueLength = 0 }, analyzer: analyzer, logger: logger)
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let port = try #require(client.port)
            let busy = try RawConnection(port: port)
            busy.send("POST /v1/faces?name=long.png HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 1\r\n\r\n1")
            try await T.eventually("the inference starts") { analyzer.counts.started == 1 }
            let before = try await T.metric(client, "visage_rejections_total", ["reason": "overloaded"])
            let refused = lines.all.count
            let contours = LiveLimitTests.tinyRequest.replacingOccurrences(of: "/v1/faces", with: "/v1/contours")
            for index in 0..<6 {
                let connection = try RawConnection(port: port)
                connection.send(index < 4 ? LiveLimitTests.tinyRequest : contours)
                #expect(await connection.response().hasPrefix("HTTP/1.1 503"))
            }
            let ordinary = try RawConnection(port: port)
            ordinary.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + LiveLimitTests.tinyRequest)
            #expect(await ordinary.responses(2).last?.hasPrefix("HTTP/1.1 503") == true)
            #expect(try await T.metric(client, "visage_rejections_total", ["reason": "overloaded"]) - before == 7)
            try await T.eventually("the refusals' count is logged") { lines.all.dropFirst(refused).contains { $0.message == "refused" } }
            let logged = lines.all.dropFirst(refused).filter { $0.metadata["status"] == "503" }
            let answered = logged.filter { $0.message == "answered" }
            let counted = logged.filter { $0.message == "refused" }.compactMap { $0.metadata["count"].flatMap { Int($0) } }
            // Seven refusals: logged one by one or together, never lost or doubled; together unless the
            // machine took over a second between two of them.
            #expect(answered.count + counted.reduce(0, +) == 7, "\(logged)")
            #expect(answered.count < 7, "each refusal had a line of its own: \(logged)")
            #expect(answered.allSatisfy { $0.metadata["code"] == "overloaded" && $0.metadata["route"] == "/v1/faces" })
            // Each "refused" line names its route and method.
            var byRoute: [String: Int] = [:]
            for line in logged where line.message == "answered" || line.message == "refused" {
                byRoute[line.metadata["route"] ?? "none", default: 0] += line.message == "answered" ? 1 : Int(line.metadata["count"] ?? "") ?? 0
            }
            #expect(byRoute == ["/v1/faces": 5, "/v1/contours": 2], "\(logged)")
            #expect(logged.filter { $0.message == "refused" }.allSatisfy { $0.metadata["method"] == "POST" })
            busy.close()
        }
    }
}
