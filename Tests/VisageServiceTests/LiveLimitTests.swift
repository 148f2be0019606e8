import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import Testing
import Visage
import VisageService

/// Overload, deadline, slow bodies, disconnects and WebSocket limits on a live server, with the slow
/// fake analyzer in place of the models.
@Suite(.serialized) struct LiveLimitTests {
    typealias T = ServiceTesting

    /// The smallest analysis request: a 1-byte body, which the fake analyzer accepts.
    static let tinyRequest = "POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 1\r\n\r\n1"

    /// A live service with one inference place and no queue (unless `configure` changes that), its place
    /// taken by a request the fake analyzer holds for `hold`: what the refusal tests start from. `test`
    /// gets the client, the server's port, the connection holding the place (answered 200 after `hold`)
    /// and the analyzer.
    @available(macOS 15, *)
    static func withTheOnlyPlaceTaken(
        holding hold: Duration, configure: (inout ServiceConfiguration) -> Void = { _ in },
        _ test: @escaping @Sendable (any TestClientProtocol, Int, RawConnection, FakeAnalyzer) async throws -> Void
    ) async throws {
        let analyzer = FakeAnalyzer(stageDelay: hold)
        let configuration = T.configuration {
            $0.maxConcurrentInferences = 1
            $0.queueLength = 0
            configure(&$0)
        }
        let app = try buildApplication(configuration, analyzer: analyzer)
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let port = try #require(client.port)
            let busy = try RawConnection(port: port)
            busy.send(tinyRequest)
            try await T.eventually("the inference starts") { analyzer.counts.started == 1 }
            try await test(client, port, busy, analyzer)
        }
    }

    /// 16 requests at once against 2 slots and 2 queue places: the rest are refused at once with 503 and
    /// Retry-After, and every accepted request is answered with its own correct record.
    @available(macOS 15, *)
    @Test func burstGetsOnly200sAnd503sAndEveryAcceptedRequestIsRight() async throws {
        let analyzer = FakeAnalyzer(stageDelay: .milliseconds(100))
        let app = try buildApplication(T.configuration { $0.maxConcurrentInferences = 2; $0.queueLength = 2 }, analyzer: analyzer)
        try await T.live(app, .ahc(.http)) { client in
            try await T.waitUntilReady(client)
            let results = try await withThrowingTaskGroup(of: (Int, TestResponse, Duration).self) { group in
                for index in 0..<16 {
                    group.addTask {
                        let start = ContinuousClock.now
                        let response = try await client.execute(
                            uri: "/v1/faces?name=\(index).jpg", method: .post, headers: [.contentType: "image/jpeg"],
                            body: ByteBuffer(bytes: [0xFF, 0xD8]))
                        return (index, response, ContinuousClock.now - start)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let accepted = results.filter { $0.1.status == .ok }
            let refused = results.filter { $0.1.status == .serviceUnavailable }
            #expect(accepted.count + refused.count == 16)
            #expect(accepted.count >= 4)
            #expect(refused.count >= 1)
            for (index, response, _) in accepted {
                let record = try JSONDecoder().decode(FacesRecord.self, from: Data(buffer: response.body))
                #expect(record.image == "\(index).jpg")
                #expect(record.faces == FakeAnalyzer.record(name: "").faces)
                T.expectDocumented(response, "POST", "/v1/faces")
            }
            for (_, response, _) in refused {
                #expect(T.errorCode(response) == "overloaded")
                #expect(response.headers[.retryAfter] == "1")
                T.expectDocumented(response, "POST", "/v1/faces")
            }
            #expect(analyzer.counts.peak <= 2)
            // The inference threads are kept between requests: no more threads than slots.
            #expect(analyzer.threads <= 2, "\(analyzer.threads) threads for \(accepted.count) inferences")
        }
    }

    /// With every slot and queue place taken by slow requests, further requests are refused at once:
    /// while the first inference is still running, whatever the machine's speed.
    @available(macOS 15, *)
    @Test func refusalsComeAtOnceWhenFull() async throws {
        let analyzer = FakeAnalyzer(stageDelay: .milliseconds(2000))
        let app = try buildApplication(T.configuration { $0.maxConcurrentInferences = 1; $0.queueLength = 1 }, analyzer: analyzer)
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let port = try #require(client.port)
            // Full: one inference running and one request waiting for the slot, as /metrics reports.
            let busy = try (0..<2).map { _ in try RawConnection(port: port) }
            busy[0].send(Self.tinyRequest)
            try await T.eventually("the first inference starts") { analyzer.counts.started == 1 }
            #expect(try await T.metric(client, "visage_inference_queue_depth") == 0, "running is not waiting")
            busy[1].send(Self.tinyRequest)
            try await T.eventually("the second request waits for the slot") { try await T.metric(client, "visage_inference_queue_depth") == 1 }
            for _ in 0..<3 {
                let extra = try RawConnection(port: port)
                extra.send(Self.tinyRequest)
                let answer = await extra.response()
                #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(200))")
                #expect(answer.lowercased().contains("retry-after: 1"))
                #expect(analyzer.counts.completed == 0, "refused without waiting for an inference")
            }
            for connection in busy { #expect(await connection.response().hasPrefix("HTTP/1.1 200")) }
            #expect(try await T.metric(client, "visage_inference_queue_depth") == 0)
        }
    }

    /// A request that waits in the queue past `--queue-timeout` is answered 503 `overloaded` with
    /// `Retry-After` at that time, while the inference ahead of it still runs, and its body is never
    /// analysed; the slot's own request is still answered 200.
    @available(macOS 15, *)
    @Test func aRequestWaitingPastTheQueueTimeoutIs503() async throws {
        try await Self.withTheOnlyPlaceTaken(
            holding: .milliseconds(3000), configure: { $0.queueLength = 1; $0.queueTimeout = .fixed(.milliseconds(300)) }
        ) { client, port, busy, analyzer in
            let waiting = try RawConnection(port: port)
            let start = ContinuousClock.now
            waiting.send(Self.tinyRequest)
            let answer = await waiting.response()
            let waited = ContinuousClock.now - start
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(200))")
            #expect(answer.lowercased().contains("retry-after: 1"))
            #expect(answer.contains("\"overloaded\"") && answer.contains("300 ms"), "\(answer.suffix(300))")
            #expect(waited >= .milliseconds(300), "answered after \(waited)")
            #expect(analyzer.counts.completed == 0 && analyzer.counts.started == 1, "refused while the first inference ran, never started")
            #expect(try await T.metric(client, "visage_inference_queue_depth") == 0)
            #expect(await busy.response().hasPrefix("HTTP/1.1 200"))
        }
    }

    /// The 504 is sent at the deadline, while the pipeline is still inside its 4 s stage; the pipeline
    /// stops at the checkpoint that ends that stage.
    @available(macOS 15, *)
    @Test func deadlineIs504AndThePipelineStopsAtItsNextCheckpoint() async throws {
        let analyzer = FakeAnalyzer(stageDelay: .milliseconds(4000), stages: 2)
        let app = try buildApplication(T.configuration { $0.requestDeadline = .milliseconds(1000) }, analyzer: analyzer)
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let response = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(bytes: [1]))
            #expect(response.status == .gatewayTimeout)
            #expect(T.errorCode(response) == "deadline_exceeded")
            #expect(try await T.metric(client, "visage_rejections_total", ["reason": "deadline_exceeded"]) == 1)
            #expect(try await T.metric(client, "visage_rejections_total", ["reason": "client_closed_request"]) == 0)
            #expect(analyzer.counts.started == 1)
            #expect(analyzer.counts.stopped == 0, "answered at the deadline, not when the pipeline noticed it")
            T.expectDocumented(response, "POST", "/v1/faces")
            try await T.eventually("the pipeline stops at its next checkpoint") { analyzer.counts.stopped == 1 }
            #expect(analyzer.counts.completed == 0)
        }
    }

    @available(macOS 15, *)
    @Test func slowBodyIs408AndAStreamPastTheLimitIs413() async throws {
        let app = try buildApplication(
            T.configuration { $0.bodyTimeout = .milliseconds(300); $0.maxBodyBytes = 1000 }, analyzer: FakeAnalyzer())
        try await T.live(app) { client in
            let port = try #require(client.port)
            let slow = try RawConnection(port: port)
            slow.send("POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 100\r\n\r\n0123456789")
            let slowAnswer = await slow.response()
            #expect(slowAnswer.hasPrefix("HTTP/1.1 408"), "\(slowAnswer.prefix(200))")
            #expect(slowAnswer.contains("\"request_timeout\""))

            let chunked = try RawConnection(port: port)
            chunked.send("POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in 0..<3 { chunked.send("200\r\n" + String(repeating: "a", count: 512) + "\r\n") }
            let chunkedAnswer = await chunked.response()
            #expect(chunkedAnswer.hasPrefix("HTTP/1.1 413"), "\(chunkedAnswer.prefix(200))")
            #expect(chunkedAnswer.contains("\"payload_too_large\""))
        }
    }

    /// A refusal before the body is read closes the connection instead of reading the body: the 503
    /// says `Connection: close` and arrives although only 1 KB of a declared 4 MiB was sent, the server
    /// then shuts its side (FIN, not a reset), and what the client still sends is taken and dropped, so
    /// its sending does not fail either.
    @available(macOS 15, *)
    @Test func aRefusalClosesWithoutReadingTheBody() async throws {
        try await Self.withTheOnlyPlaceTaken(holding: .milliseconds(3000)) { client, port, busy, analyzer in

            let declared = 4 << 20
            let refused = try RawConnection(port: port)
            refused.send("POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: \(declared)\r\n\r\n")
            #expect(refused.send(Data(repeating: 0xAB, count: 1024)))
            let (data, end) = await refused.untilEnd()
            let answer = String(decoding: data, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(200))")
            #expect(answer.lowercased().contains("connection: close"))
            #expect(answer.lowercased().contains("retry-after: 1"))
            #expect(answer.hasSuffix(#""code":"overloaded","message":"every inference slot (1) is busy and the queue (0 places) takes no more requests; retry after 1 s"}}"#))
            #expect(end == .closed, "the server shut its side after the answer (not a reset, not left open)")
            // The rest of the body: dropped by the lingering connection, no reset.
            #expect(refused.send(Data(repeating: 0xAB, count: declared - 1024)))
            refused.close()
            #expect(analyzer.counts.started == 1, "the refused request never reached the pipeline")
            #expect(await busy.response().hasPrefix("HTTP/1.1 200"))
        }
    }

    /// After a 503 with `Retry-After`, the connection is not read for the refusal pause: a request resent
    /// at once is answered when the pause ends (still 503 here: the place stays taken), while another
    /// connection's request is refused at once meanwhile; with no pause the resent request is refused at once.
    @available(macOS 15, *)
    @Test(arguments: [true, false]) func aConnectionJustRefusedIsNotReadForThePause(paused: Bool) async throws {
        let pause = Duration.milliseconds(2000)
        try await Self.withTheOnlyPlaceTaken(holding: .milliseconds(4000), configure: { $0.refusalPause = paused ? pause : nil }) { _, port, busy, _ in
            let refused = try RawConnection(port: port)
            refused.send(Self.tinyRequest)
            #expect(await refused.response().hasPrefix("HTTP/1.1 503"))
            let resent = ContinuousClock.now
            refused.send(Self.tinyRequest)
            let other = try RawConnection(port: port)
            other.send(Self.tinyRequest)
            #expect(await other.response().hasPrefix("HTTP/1.1 503"))
            #expect(ContinuousClock.now - resent < pause * 0.9, "another connection is not paused")
            let again = await refused.response()
            let waited = ContinuousClock.now - resent
            #expect(again.hasPrefix("HTTP/1.1 503"), "\(again.prefix(200))")
            if paused {
                #expect(waited >= pause * 0.9, "answered after \(waited)")
            } else {
                #expect(waited < pause * 0.9, "answered after \(waited)")
            }
            #expect(await busy.response().hasPrefix("HTTP/1.1 200"))
        }
    }

    /// A refusal of a small body (up to 256 KiB) reads the body and keeps the connection: reading 68 KB
    /// costs the server less than the client's next connection. Two refusals on one connection.
    @available(macOS 15, *)
    @Test func aRefusalOfASmallBodyKeepsTheConnection() async throws {
        try await Self.withTheOnlyPlaceTaken(holding: .milliseconds(3000)) { client, port, busy, analyzer in
            let refused = try RawConnection(port: port)
            let body = Data(repeating: 0xAB, count: 68 << 10)
            for _ in 0..<2 {
                #expect(refused.send(Data("POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body))
                let answer = await refused.response()
                #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(200))")
                #expect(!answer.lowercased().contains("connection: close"))
            }
            #expect(await busy.response().hasPrefix("HTTP/1.1 200"))
        }
    }

    /// A refusal answered on the event loop (``EarlyRefusal``: a request arriving on an idle connection)
    /// and one answered the ordinary way (the same request pipelined behind a health check, which the
    /// early refusal leaves to Hummingbird to keep answers in order) are the same answer: status line,
    /// headers but `Date`, and body byte for byte, each documented and counted in `/metrics`.
    @available(macOS 15, *)
    @Test func anEarlyRefusalIsTheOrdinaryRefusalByteForByte() async throws {
        try await Self.withTheOnlyPlaceTaken(holding: .milliseconds(3000)) { client, port, busy, analyzer in
            let labels = ["route": "/v1/faces", "status": "503"]
            let (rejectedBefore, countedBefore) = (
                try await T.metric(client, "visage_rejections_total", ["reason": "overloaded"]),
                try await T.metric(client, "visage_http_requests_total", labels))
            let early = try RawConnection(port: port)
            early.send(Self.tinyRequest)
            let first = await early.response()
            early.send(Self.tinyRequest)
            let again = await early.response()
            let ordinary = try RawConnection(port: port)
            ordinary.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + Self.tinyRequest)
            let answers = await ordinary.responses(2)
            #expect(answers.count == 2)
            func normalized(_ answer: String) -> [String] {
                let parts = answer.components(separatedBy: "\r\n\r\n")
                let lines = parts[0].components(separatedBy: "\r\n")
                // `Date` and `Server-Timing`'s duration differ between any two answers.
                let headers = lines.dropFirst().filter { !$0.lowercased().hasPrefix("date:") }.map { $0.lowercased() }
                    .map { $0.hasPrefix("server-timing: total;dur=") ? "server-timing: total;dur=…" : $0 }.sorted()
                return [lines[0]] + headers + [parts.dropFirst().joined(separator: "\r\n\r\n")]
            }
            #expect(first.hasPrefix("HTTP/1.1 503"), "\(first.prefix(200))")
            #expect(first.lowercased().contains("\r\ndate: "))
            #expect(normalized(first) == normalized(again))
            #expect(normalized(first) == normalized(answers.last ?? ""), "\(first)\n---\n\(answers.last ?? "")")
            #expect(normalized(first).contains("retry-after: 1"))
            #expect(normalized(first).contains("server-timing: total;dur=…"))
            #expect(normalized(first).last?.contains(#""code":"overloaded""#) == true)
            #expect(try await T.metric(client, "visage_rejections_total", ["reason": "overloaded"]) - rejectedBefore == 3)
            #expect(try await T.metric(client, "visage_http_requests_total", labels) - countedBefore == 3)
            #expect(analyzer.counts.started == 1, "no refused request reached the pipeline")
            #expect(await busy.response().hasPrefix("HTTP/1.1 200"))
        }
    }

    /// A refused small body is read through and the connection carries on: two 503s for 68 KB bodies, one
    /// sent in 68 segments of 1 KB after its 503 came, then, once the slot is free, a 200 on the same
    /// connection. Content-Length still delimits each body: a byte counted wrong would make the next
    /// request unparseable (400) or leave it waiting (silence).
    @available(macOS 15, *)
    @Test func aRefusedSmallBodyIsReadThroughAndTheNextRequestOnTheConnectionIsServed() async throws {
        try await Self.withTheOnlyPlaceTaken(holding: .milliseconds(2000)) { client, port, busy, analyzer in
            let connection = try RawConnection(port: port)
            let body = Data(repeating: 0xAB, count: 68 << 10)
            let head = "POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: \(body.count)\r\n\r\n"
            #expect(connection.send(Data(head.utf8) + body))
            let first = await connection.response()
            #expect(first.hasPrefix("HTTP/1.1 503"), "\(first.prefix(200))")
            // The head alone is refused; the body follows in small pieces.
            #expect(connection.send(Data(head.utf8)))
            let second = await connection.response()
            #expect(second.hasPrefix("HTTP/1.1 503"), "\(second.prefix(200))")
            #expect(!second.lowercased().contains("connection: close"))
            for segment in stride(from: 0, to: body.count, by: 1024) {
                #expect(connection.send(body[segment..<min(segment + 1024, body.count)]))
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(await busy.response().hasPrefix("HTTP/1.1 200"))
            try await T.eventually("the slot is free") { try await T.metric(client, "visage_inference_queue_depth") == 0 && analyzer.counts.completed == 1 }
            connection.send(Self.tinyRequest)
            let third = await connection.response()
            #expect(third.hasPrefix("HTTP/1.1 200"), "\(third.prefix(200))")
            #expect(analyzer.counts.started == 2, "the refused requests never reached the pipeline")
        }
    }

    /// Pipelined requests, whose parts reach the server before the earlier answers are written. A 415 for
    /// a 68 KB body written while the next request's JSON body is half sent must leave that body whole (its
    /// 200 needs all of it: a missing piece is a 400; this failed for a handler that dropped the body of
    /// whatever request was arriving when an early answer was written); then two refused 68 KB bodies
    /// and a health check in one write are answered in order on the one connection.
    @available(macOS 15, *)
    @Test func pipelinedRequestsAfterAnEarlyAnswerKeepTheirOwnBodies() async throws {
        let analyzer = FakeAnalyzer(stageDelay: .milliseconds(1000))
        let app = try buildApplication(T.configuration { $0.maxConcurrentInferences = 1; $0.queueLength = 0 }, analyzer: analyzer)
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            let body = Data(repeating: 0xAB, count: 68 << 10)
            let unsupported = Data("POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            let json = Data(#"{"image":"\#(Data(repeating: 0x5A, count: 51 << 10).base64EncodedString())"}"#.utf8)
            let accepted = Data("POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(json.count)\r\n\r\n".utf8) + json
            let health = Data("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            let half = unsupported.count + accepted.count / 2
            let both = unsupported + accepted + health
            #expect(connection.send(both[..<half]))
            try await Task.sleep(for: .milliseconds(200))
            #expect(connection.send(both[half...]))
            let first = await connection.responses(3)
            #expect(first.count == 3)
            #expect(first.first?.hasPrefix("HTTP/1.1 415") == true, "\(first.first?.prefix(200) ?? "")")
            #expect(first.dropFirst().first?.hasPrefix("HTTP/1.1 200") == true, "\(first.dropFirst().first?.prefix(300) ?? "")")
            #expect(first.last?.hasPrefix("HTTP/1.1 200") == true)

            let busy = try RawConnection(port: port)
            busy.send(Self.tinyRequest)
            try await T.eventually("the inference starts") { analyzer.counts.started == 2 }
            let refused = Data("POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            #expect(connection.send(refused + refused + health))
            let second = await connection.responses(3)
            #expect(second.count == 3)
            #expect(second.prefix(2).allSatisfy { $0.hasPrefix("HTTP/1.1 503") }, "\(second.map { $0.prefix(40) })")
            #expect(second.last?.hasPrefix("HTTP/1.1 200") == true)
            #expect(await busy.response().hasPrefix("HTTP/1.1 200"))
        }
    }

    /// A client that sends its whole large body before reading, as wrk does, still reads the whole 503:
    /// the server does not reset the connection under it.
    @available(macOS 15, *)
    @Test func aRefusalReachesAClientThatSentItsWholeBodyFirst() async throws {
        try await Self.withTheOnlyPlaceTaken(holding: .milliseconds(3000)) { client, port, busy, analyzer in
            for _ in 0..<3 {
                let body = Data(repeating: 0xCD, count: 2 << 20)
                let refused = try RawConnection(port: port)
                let head = "POST /v1/faces HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: \(body.count)\r\n\r\n"
                let sent = await withCheckedContinuation { continuation in
                    Thread { continuation.resume(returning: refused.send(Data(head.utf8) + body)) }.start()
                }
                #expect(sent, "the whole body was taken, none of it refused by a reset")
                let (data, end) = await refused.untilEnd()
                let answer = String(decoding: data, as: UTF8.self)
                #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(200))")
                #expect(answer.hasSuffix("}}"), "the whole body of the 503")
                #expect(end == .closed)
            }
            #expect(await busy.response().hasPrefix("HTTP/1.1 200"))
        }
    }

    @available(macOS 15, *)
    @Test func aClientThatHangsUpCancelsItsWork() async throws {
        let analyzer = FakeAnalyzer(stageDelay: .milliseconds(300), stages: 10)
        let app = try buildApplication(T.configuration(), analyzer: analyzer)
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            connection.send(Self.tinyRequest)
            try await T.eventually("the work starts") { analyzer.counts.started == 1 }
            connection.close()
            // The work would take 3 s; it stops at the first checkpoint after the hang-up.
            try await T.eventually("the work stops") { analyzer.counts.stopped == 1 }
            #expect(analyzer.counts.completed == 0)
            try await Self.expectCountedAsClientClosed(client)
        }
    }

    /// A request whose client went is counted and logged as 499 `client_closed_request`, not as a 504
    /// `deadline_exceeded`.
    static func expectCountedAsClientClosed(_ client: some TestClientProtocol) async throws {
        try await T.eventually("the request is counted") {
            try await T.metric(client, "visage_http_requests_total", ["route": "/v1/faces", "status": "499"]) == 1
        }
        #expect(try await T.metric(client, "visage_rejections_total", ["reason": "client_closed_request"]) == 1)
        #expect(try await T.metric(client, "visage_rejections_total", ["reason": "deadline_exceeded"]) == 0)
        #expect(try await T.metric(client, "visage_http_requests_total", ["status": "504"]) == 0)
    }

    /// Keep-alive: two analysis requests answered on one connection, and a client that hangs up during
    /// the second still cancels its work (the connection watch, not the request stream, sees it go).
    @available(macOS 15, *)
    @Test func oneConnectionCarriesSeveralRequestsAndAHangUpStillCancels() async throws {
        // The third request runs 15 s unless stopped: on a loaded machine the hang-up may come late.
        let analyzer = FakeAnalyzer(stageDelay: .milliseconds(150), stages: 8, longStages: 100)
        let app = try buildApplication(T.configuration(), analyzer: analyzer)
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            let request = "POST /v1/faces?name=NAME HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 1\r\n\r\n1"
            for name in ["first.png", "second.png"] {
                connection.send(request.replacingOccurrences(of: "NAME", with: name))
                let answer = await connection.response()
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
                #expect(!answer.lowercased().contains("connection: close"))
                #expect(answer.contains("\"image\":\"\(name)\""))
            }
            #expect(analyzer.counts.completed == 2)
            // The third request on the same connection: the client goes once its 15 s of work has begun.
            connection.send(request.replacingOccurrences(of: "NAME", with: "long-third.png"))
            try await T.eventually("the third request's work starts") { analyzer.counts.started == 3 }
            connection.close()
            try await T.eventually("the work stops") { analyzer.counts.stopped == 1 }
            #expect(analyzer.counts.completed == 2)
        }
    }

    /// A client that stops sending (half-closes) after its request is treated as gone, as before.
    @available(macOS 15, *)
    @Test func aClientThatHalfClosesCancelsItsWork() async throws {
        let analyzer = FakeAnalyzer(stageDelay: .milliseconds(300), stages: 10)
        let app = try buildApplication(T.configuration(), analyzer: analyzer)
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            connection.send(Self.tinyRequest)
            try await T.eventually("the work starts") { analyzer.counts.started == 1 }
            connection.shutdownSending()
            try await T.eventually("the work stops") { analyzer.counts.stopped == 1 }
            #expect(analyzer.counts.completed == 0)
            // Nothing is sent to a client that left: the connection is closed without an answer.
            let (data, end) = await connection.untilEnd()
            #expect(data.isEmpty, "\(String(decoding: data.prefix(200), as: UTF8.self))")
            #expect(end == .closed)
            try await Self.expectCountedAsClientClosed(client)
        }
    }

    @available(macOS 15, *)
    @Test func webSocketKeepsOnlyTheNewestFrameAndCountsSkips() async throws {
        // 300 ms a frame against eight frames sent at once: frames wait, so some are skipped.
        let analyzer = FakeAnalyzer(stageDelay: .milliseconds(300), stages: 1)
        let app = try buildApplication(T.configuration { $0.maxWebSocketMessageBytes = 4096 }, analyzer: analyzer)
        try await T.live(app) { client in
            let records = TextMessages()
            try await client.ws("/v1/track", configuration: .init(maxFrameSize: 1 << 16)) { inbound, outbound, _ in
                try await outbound.write(.text(#"{"maxFaces": 2, "debounce": 0.5}"#))
                for index in 0..<8 {
                    try await outbound.write(.text("{\"time\": \(Double(index) / 10)}"))
                    try await outbound.write(.binary(ByteBuffer(bytes: [UInt8(index)])))
                }
                try await outbound.write(.text(#"{"maxFaces": 99}"#))
                var iterator = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                var (lastSeen, errorSeen) = (false, false)
                while !(lastSeen && errorSeen), let message = try await iterator.next() {
                    guard case .text(let text) = message else { continue }
                    records.append(text)
                    let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                    if object?["error"] != nil { errorSeen = true } else if object?["frame"] as? Int == 7 { lastSeen = true }
                }
            }
            let frames = records.all.compactMap { try? JSONDecoder().decode(TrackingFrameRecord.self, from: Data($0.utf8)) }
            #expect(frames.last?.frame == 7)
            #expect(frames.last?.time == 0.7)
            // Every frame was either answered or counted as skipped by the next answer.
            #expect(frames.count + frames.reduce(0) { $0 + ($1.skipped ?? 0) } == 8)
            #expect(frames.count < 8)
            #expect(records.all.contains { $0.contains("\"invalid_parameter\"") })
        }
    }

    @available(macOS 15, *)
    @Test func webSocketConnectionLimitAndMessageSize() async throws {
        let app = try buildApplication(
            T.configuration { $0.maxWebSocketConnections = 1; $0.maxWebSocketMessageBytes = 1024 }, analyzer: FakeAnalyzer())
        try await T.live(app) { client in
            let port = try #require(client.port)
            let (opened, open) = AsyncStream<Void>.makeStream()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { open.finish() }  // a failed first connection ends the wait below, too
                    _ = try await client.ws("/v1/track") { inbound, outbound, _ in
                        // The server's answer to a bad message proves it counted this connection: only then
                        // may the second one come, or it could take the place first and wait for frames forever.
                        try await outbound.write(.text("not json"))
                        var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                        _ = try await messages.next()
                        open.yield()
                        try await Task.sleep(for: .milliseconds(500))
                    }
                }
                var iterator = opened.makeAsyncIterator()
                await iterator.next()
                // The one place is taken: the next connection is closed at once with 1013, try again later.
                let refused = try await RawConnection(port: port).webSocketRefusal(path: "/v1/track")
                #expect(refused.status == 101, "\(refused.head)")
                #expect(refused.closeCode == 1013)
                #expect(refused.closeReason?.contains("tracking connections are open") == true)
                // Not an upgrade: 503 while full.
                let plain = try await client.execute(uri: "/v1/track", method: .get)
                #expect(plain.status == .serviceUnavailable)
                #expect(T.errorCode(plain) == "overloaded")
                T.expectDocumented(plain, "GET", "/v1/track")
                try await group.waitForAll()
            }
            let plain = try await client.execute(uri: "/v1/track", method: .get)
            #expect(plain.status == .badRequest)
            T.expectDocumented(plain, "GET", "/v1/track")
            // A message over the limit closes the connection with "message too big".
            let close = try await client.ws("/v1/track", configuration: .init(maxFrameSize: 1 << 16)) { inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(repeating: 1, count: 4096)))
                for try await _ in inbound {}
            }
            #expect(close?.closeCode == .messageTooLarge)
        }
    }
}

extension LiveLimitTests {
    /// With every thread of Swift's cooperative pool blocked by synchronous work (as a program embedding
    /// the service, or model-heavy suites beside this one, may do), requests are still answered: the
    /// service runs on its own executor (and this test's code on the tests' executor). Proved by order,
    /// not by time: the answers arrive while every blocker is still asleep.
    @available(macOS 15, *)
    @Test func answersWhileTheCooperativePoolIsBlocked() async throws {
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer())
        try await T.live(app) { client in
            try await T.waitUntilReady(client)
            let port = try #require(client.port)
            let blockers = ProcessInfo.processInfo.activeProcessorCount
            let asleep = Counter(), awake = Counter()
            for _ in 0..<blockers {
                Task.detached {
                    asleep.add()
                    blockThisThread(seconds: 8)
                    awake.add()
                }
            }
            try await T.eventually("the blockers take every pool thread") { asleep.value == blockers }
            let request = "POST /v1/faces?name=NAME HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 1\r\n\r\n1"
            let connection = try RawConnection(port: port)  // accepted while the pool is blocked
            for name in ["a.png", "b.png"] {
                connection.send(request.replacingOccurrences(of: "NAME", with: name))
                let answer = await connection.response()
                #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains("\"image\":\"\(name)\""), "\(answer.prefix(200))")
            }
            #expect(awake.value == 0, "answered while every pool thread was blocked")
        }
    }

    /// The limit every live test runs under holds even for work that ignores cancellation: the test fails
    /// with the wait's name at the limit instead of hanging the run.
    @available(macOS 15, *)
    @Test func aWaitThatNeverEndsFailsAtItsLimit() async throws {
        let start = ContinuousClock.now
        try await withKnownIssue {
            try await T.within(.milliseconds(300), "a wait that never ends") {
                await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
            }
        } matching: { issue in
            (issue.error as? TimedOut)?.description == "a wait that never ends did not finish within 0.3 seconds"
        }
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @available(macOS 15, *)
    @Test func webSocketNeedsTheAPIKeyWhenOneIsSet() async throws {
        let app = try buildApplication(T.configuration { $0.apiKey = "s3cret" }, analyzer: FakeAnalyzer())
        try await T.live(app) { client in
            let port = try #require(client.port)
            for headers in [[:], ["X-API-Key": "wrong"]] {
                let refused = try await RawConnection(port: port).webSocketRefusal(path: "/v1/track", headers: headers)
                #expect(refused.status == 101, "\(refused.head)")
                #expect(refused.closeCode == 1008)
                #expect(refused.closeReason?.hasPrefix("unauthorized") == true)
                #expect(refused.frames.count == 1, "the close frame alone: nothing was tracked")
            }
            let answers = TextMessages()
            let accepted = try await client.ws("/v1/track", configuration: .init(additionalHeaders: [HTTPField.Name("X-API-Key")!: "s3cret"])) {
                inbound, outbound, _ in
                try await outbound.write(.binary(ByteBuffer(bytes: [1])))
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    if case .text(let text) = message { answers.append(text) }
                    break
                }
            }
            #expect(accepted?.closeCode == .normalClosure)
            #expect(answers.all.count == 1)
            let plain = try await client.execute(uri: "/v1/track", method: .get)
            #expect(plain.status == .unauthorized)
        }
    }
}

/// Text messages collected by a WebSocket test client.
final class TextMessages: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func append(_ text: String) { lock.withLock { messages.append(text) } }
    var all: [String] { lock.withLock { messages } }
}

/// A count shared between threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Synchronous work standing in for a model run: blocks the calling thread.
func blockThisThread(seconds: Double) { Thread.sleep(forTimeInterval: seconds) }
