import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Visage
@testable import VisageService

/// `Server-Timing` on the wire: what an answer reports, to the microsecond, and that it matches the
/// OpenAPI document.
@Suite(.serialized) struct ServerTimingTests {
    typealias T = ServiceTesting

    /// `name;dur=MS` entries of a `Server-Timing` value, in order.
    static func entries(_ value: String?) -> [(name: String, milliseconds: Double)] {
        (value ?? "").split(separator: ",").compactMap { part in
            let fields = part.trimmingCharacters(in: .whitespaces).split(separator: ";")
            guard fields.count == 2, fields[1].hasPrefix("dur="), let duration = Double(fields[1].dropFirst(4)) else { return nil }
            return (String(fields[0]), duration)
        }
    }

    @Test func entriesAreMillisecondsWithThreeDecimalsAndTokenNames() {
        #expect(ServerTiming.entry("total", nanoseconds: 0) == "total;dur=0.000")
        #expect(ServerTiming.entry("total", nanoseconds: 1_234_567) == "total;dur=1.235")
        #expect(ServerTiming.entry("total", nanoseconds: 12_000_499) == "total;dur=12.000")
        #expect(ServerTiming.entry("total", nanoseconds: 5_004_000) == "total;dur=5.004")
        #expect(ServerTiming.entry("total", nanoseconds: -3) == "total;dur=0.000")
        #expect(ServerTiming.token("contour art") == "contour-art")
        #expect(ServerTiming.token("détect") == "d--tect")
        #expect(ServerTiming.token("decode") == "decode")
        let timing = ServerTiming()
        timing.record("decode", .microseconds(1500))
        timing.record("fake 0", .milliseconds(2))
        timing.record("decode", .microseconds(250))
        #expect(timing.header(total: .milliseconds(7)) == "decode;dur=1.750, fake-0;dur=2.000, total;dur=7.000")
    }

    /// A detection's 200 reports its body, its wait for a slot, each stage (the fake's, 40 ms each) and
    /// the total, which covers them; the document's pattern holds (``ServiceTesting/expectDocumented``).
    @available(macOS 15, *)
    @Test func aDetectionReportsItsStagesAndTotal() async throws {
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer(stageDelay: .milliseconds(40)))
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let response = try await client.execute(
                uri: "/v1/faces", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(string: "1"))
            #expect(response.status == .ok)
            T.expectDocumented(response, "POST", "/v1/faces")
            let header = response.headers[HTTPField.Name("Server-Timing")!]
            let entries = Self.entries(header)
            #expect(entries.map(\.name) == ["body", "queue", "fake-0", "fake-1", "total"], "\(header ?? "none")")
            let duration = Dictionary(entries.map { ($0.name, $0.milliseconds) }, uniquingKeysWith: +)
            #expect(duration["fake-0", default: 0] >= 40 && duration["fake-1", default: 0] >= 40)
            let parts = entries.filter { $0.name != "total" }.map(\.milliseconds).reduce(0, +)
            #expect(duration["total", default: 0] >= parts - 0.01, "\(header ?? "none")")
            #expect(duration["total", default: 0] < 60_000)
            // The answer's own `timings` are the same stages.
            let timings = try #require(T.json(response)?["timings"] as? [[String: Any]])
            #expect(timings.compactMap { $0["stage"] as? String } == ["fake 0", "fake 1"])

            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(Self.entries(health.headers[HTTPField.Name("Server-Timing")!]).map(\.name) == ["total"])
            let error = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: "text/plain"], body: ByteBuffer(string: "1"))
            #expect(error.status == .unsupportedMediaType)
            T.expectDocumented(error, "POST", "/v1/faces")
            #expect(Self.entries(error.headers[HTTPField.Name("Server-Timing")!]).map(\.name) == ["total"])
        }
    }

    /// The early 503 (answered on the event loop from the head) carries its `total` too, as the document says.
    @available(macOS 15, *)
    @Test func anEarlyRefusalReportsItsTotal() async throws {
        try await LiveLimitTests.withTheOnlyPlaceTaken(holding: .milliseconds(2000)) { client, port, busy, _ in
            let connection = try RawConnection(port: port)
            connection.send(LiveLimitTests.tinyRequest)
            let answer = await connection.response()
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(200))")
            let line = answer.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("server-timing:") }
            let value = line.map { String($0.dropFirst("server-timing:".count)).trimmingCharacters(in: .whitespaces) }
            let entries = Self.entries(value)
            #expect(entries.map(\.name) == ["total"], "\(line ?? "no Server-Timing")")
            #expect((entries.first?.milliseconds ?? -1) >= 0 && (entries.first?.milliseconds ?? 99) < 5_000)
            let pattern = try #require(
                (((OpenAPIDocument.shared.root["components"] as? [String: Any])?["headers"] as? [String: Any])?["ServerTiming"] as? [String: Any])
                    .flatMap { ($0["schema"] as? [String: Any])?["pattern"] as? String })
            #expect(value?.range(of: pattern, options: .regularExpression) != nil)
            #expect(await busy.response().hasPrefix("HTTP/1.1 200"))
        }
    }
}
