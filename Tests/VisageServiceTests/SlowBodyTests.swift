import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Visage
import VisageService

/// Slow bodies (slowloris, FUZZING.md finding 5) on a live server: a body is read before its request
/// takes an admission place, so clients dripping their bodies time out alone while complete requests are
/// answered; the bodies still arriving are bounded by the shared body budget.
@Suite(.serialized) struct SlowBodyTests {
    typealias T = ServiceTesting

    static let photoRequest = "POST /v1/faces?name=photo.png HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 1\r\n\r\n1"

    /// Six clients drip bodies against 1 slot and 1 queue place (three times the places): another client's
    /// requests are answered 200 meanwhile, each about as fast as the fake inference, and every slow body
    /// gets 408 at the body timeout.
    @available(macOS 15, *)
    @Test func slowBodiesTimeOutAndOtherClientsAreAnswered() async throws {
        let analyzer = FakeAnalyzer(stageDelay: .milliseconds(20))
        let app = try buildApplication(
            T.configuration { $0.maxConcurrentInferences = 1; $0.queueLength = 1; $0.bodyTimeout = .milliseconds(5000) }, analyzer: analyzer)
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let port = try #require(client.port)
            let start = ContinuousClock.now
            let slow = try (0..<6).map { _ in try RawConnection(port: port) }
            for connection in slow {
                connection.send("POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: 200000\r\n\r\n\u{1}")
            }
            try await Task.sleep(for: .milliseconds(200))
            // Before the fix each slow body held a place, and this client got only 503s.
            for _ in 0..<5 {
                let photo = try RawConnection(port: port)
                photo.send(Self.photoRequest)
                let answer = await photo.response()
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
                #expect(answer.contains("\"image\":\"photo.png\""))
                // On a loaded machine the five requests can outlast the body timeout; until then no slow body is answered.
                if ContinuousClock.now - start < .milliseconds(4500) {
                    #expect(slow.allSatisfy { !$0.hasAnswer }, "answered while every slow body was still open, not held behind them")
                }
                for connection in slow { connection.send("\u{1}") }
            }
            for connection in slow {
                let answer = await connection.response()
                #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(300))")
                #expect(answer.contains("\"request_timeout\""))
            }
            #expect(ContinuousClock.now - start < .seconds(15), "at the body timeout, not after a stall")
            #expect(analyzer.counts.completed == 5)
        }
    }

    /// With every place taken by complete requests, a request is still refused at once with 503 and
    /// Retry-After, before its body is read: here the body is never sent.
    @available(macOS 15, *)
    @Test func aFullServiceRefusesBeforeReadingTheBody() async throws {
        // Each busy request holds its place 3 s: the extra request must come while both are held, and on a
        // loaded machine the wait for the queue depth and the extra's connection can take a while.
        let analyzer = FakeAnalyzer(stageDelay: .milliseconds(100), stages: 30)
        let app = try buildApplication(T.configuration { $0.maxConcurrentInferences = 1; $0.queueLength = 1 }, analyzer: analyzer)
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let port = try #require(client.port)
            let busy = try (0..<2).map { _ in try RawConnection(port: port) }
            for connection in busy { connection.send(Self.photoRequest) }
            try await T.eventually("one inference running and one waiting") {
                let waiting = try await T.metric(client, "visage_inference_queue_depth")
                return analyzer.counts.started == 1 && waiting == 1
            }
            let extra = try RawConnection(port: port)
            extra.send("POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 100000\r\n\r\n")
            let answer = await extra.response()
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(300))")
            #expect(answer.lowercased().contains("retry-after: 1"))
            #expect(answer.contains("\"overloaded\""))
            #expect(analyzer.counts.completed == 0, "refused without waiting for the body or an inference")
            for connection in busy { #expect(await connection.response().hasPrefix("HTTP/1.1 200")) }
        }
    }

    /// The bodies still arriving share one budget of bytes: a body that would pass it is refused with 503
    /// and Retry-After, and once the body holding the budget times out the next one is read and answered.
    @available(macOS 15, *)
    @Test func bodiesBeingReceivedAreBoundedByTheBudget() async throws {
        let app = try buildApplication(
            T.configuration { $0.maxBodyBytes = 64 * 1024; $0.maxReceivingBodyBytes = 64 * 1024; $0.bodyTimeout = .milliseconds(5000) },
            analyzer: FakeAnalyzer())
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let port = try #require(client.port)
            let chunk = String(repeating: "a", count: 20_000)
            let holder = try RawConnection(port: port)
            holder.send("POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 60000\r\n\r\n")
            holder.send(chunk)
            try await Task.sleep(for: .milliseconds(100))
            holder.send(chunk)  // 40,000 bytes arrived: a 64 KiB buffer taken from the budget
            try await Task.sleep(for: .milliseconds(200))
            let refused = try RawConnection(port: port)
            refused.send("POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 30000\r\n\r\n")
            refused.send(chunk)
            try await Task.sleep(for: .milliseconds(100))
            refused.send(String(repeating: "a", count: 10_000))
            let answer = await refused.response()
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(300))")
            #expect(answer.lowercased().contains("retry-after: 1"))
            #expect(answer.contains("\"overloaded\""))
            #expect(await holder.response().hasPrefix("HTTP/1.1 408"))
            let next = try RawConnection(port: port)
            next.send("POST /v1/faces?name=next.png HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 30000\r\n\r\n")
            next.send(chunk)
            try await Task.sleep(for: .milliseconds(100))
            next.send(String(repeating: "a", count: 10_000))
            let accepted = await next.response()
            #expect(accepted.hasPrefix("HTTP/1.1 200"), "\(accepted.prefix(300))")
            #expect(accepted.contains("\"image\":\"next.png\""))
        }
    }
}
