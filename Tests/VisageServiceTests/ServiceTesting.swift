import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Visage
import VisageService

/// Building the application as `visage serve` does, with port 0, and checking answers on the wire.
///
/// The live helpers run servers and tests on task executors (`ServiceExecutor`, macOS 15); the suites
/// that use them say so with `@available(macOS 15, *)`, so the package's tests build for macOS 14 and
/// Swift Testing skips those suites there.
enum ServiceTesting {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Samples").standardizedFileURL

    static func sample(_ name: String) throws -> Data { try Data(contentsOf: samples.appendingPathComponent(name)) }

    static func configuration(_ change: (inout ServiceConfiguration) -> Void = { _ in }) -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        configuration.port = 0
        configuration.maxConcurrentInferences = 2
        configuration.queueLength = 2
        // Debug builds on a busy machine: the limits under test set their own short times.
        configuration.requestDeadline = .seconds(300)
        configuration.bodyTimeout = .seconds(120)
        change(&configuration)
        return configuration
    }

    /// Runs `body`, throwing ``TimedOut`` (which names `what`) if it has not finished within `limit`: a hang
    /// in the server, its drain or a client library then costs one failed test, not the whole run. The
    /// late work is cancelled and left behind (it may never end: that is what is being reported).
    @available(macOS 15, *)
    static func within<R: Sendable>(
        _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> R
    ) async throws -> R {
        let race = Race<R>()
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let work = Task(executorPreference: testExecutor) {
                do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
            }
            let timer = Task {
                try await Task.sleep(for: limit)
                work.cancel()
                race.finish(.failure(TimedOut(what: what, limit: limit)))
            }
            race.onFinish { timer.cancel() }
        }
    }

    /// Threads for the tests' own code (``within(_:_:_:)`` and ``live(_:_:limit:_:)`` run it there): off
    /// Swift's cooperative pool, which the model-heavy suites running beside these fill with synchronous
    /// work, and apart from the servers' threads, so one test's synchronous work (the OpenAPI document's
    /// first parse, decoding answers) cannot hold up another test's server. Many threads, because a
    /// lazily made static (the OpenAPI document, parsed for seconds in a debug build) blocks every thread
    /// that reaches it meanwhile: with few threads, all of them, and every test's next step with them.
    @available(macOS 15, *)
    static let testExecutor = ServiceExecutor(threads: 16, name: "visage test")

    /// A test on a live server (`app.test(.live)` or `.ahc`), server start and drain included, bounded by
    /// `limit`. The server runs on the service's executor, as `visage serve` does; the test's code on
    /// ``testExecutor``.
    @available(macOS 15, *)
    static func live<R: Sendable>(
        _ app: some ApplicationProtocol, _ setup: TestingSetup = .live, limit: Duration = .seconds(90),
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> R
    ) async throws -> R {
        try await within(limit, "the live test (server, client and drain)") {
            try await withServiceExecutor {
                try await app.test(setup) { client in
                    try await withTaskExecutorPreference(testExecutor) { try await test(client) }
                }
            }
        }
    }

    /// Waits until `condition` holds, checking every 20 ms; throws ``TimedOut`` naming `what` after
    /// `limit`. Tests wait for the event they need (a request started, a place taken) instead of sleeping
    /// for a time that a loaded machine may overrun.
    static func eventually(
        _ what: String, within limit: Duration = .seconds(20), _ condition: @Sendable () async throws -> Bool
    ) async throws {
        let end = ContinuousClock.now + limit
        while try await !condition() {
            guard ContinuousClock.now < end else { throw TimedOut(what: what, limit: limit) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The value of the unlabelled metric `name` in `/metrics`.
    static func metric(_ client: some TestClientProtocol, _ name: String) async throws -> Double? {
        let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    /// The value of metric `name` in `/metrics` on the series whose labels include `labels` (0 when no such
    /// series exists yet: Prometheus counters appear on their first increment).
    static func metric(_ client: some TestClientProtocol, _ name: String, _ labels: [String: String]) async throws -> Double {
        let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
        let wanted = labels.map { "\($0.key)=\"\($0.value)\"" }
        return text.split(separator: "\n").filter { line in
            line.hasPrefix(name + "{") && wanted.allSatisfy { line.contains($0) }
        }.compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
    }

    /// Waits until `/readyz` answers 200 (the warm-up service has run).
    static func waitUntilReady(_ client: some TestClientProtocol) async throws {
        for _ in 0..<600 {
            let status = try await client.execute(uri: "/readyz", method: .get).status
            if status == .ok { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the service never became ready")
    }

    /// The error body's code, checking the body has exactly the documented shape.
    static func errorCode(_ response: TestResponse) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any],
              object.count == 1, let error = object["error"] as? [String: Any], error.count == 2,
              error["message"] is String
        else { return nil }
        return error["code"] as? String
    }

    /// Expects `response` to be documented for `method path` in the OpenAPI document, body and headers
    /// (`Server-Timing`, `Retry-After`) included.
    static func expectDocumented(_ response: TestResponse, _ method: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let headers = Dictionary(response.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { first, _ in first })
        let problems = OpenAPIDocument.shared.problems(
            method: method, path: path, status: Int(response.status.code), contentType: response.headers[.contentType],
            body: Data(buffer: response.body), headers: headers)
        #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
    }

    /// A multipart/form-data body of `parts` (name, file name or nil for a field, bytes).
    static func multipart(_ parts: [(name: String, filename: String?, data: Data)], boundary: String = "visage-test-boundary") -> (ByteBuffer, String) {
        var body = Data()
        for part in parts {
            body += Data("--\(boundary)\r\n".utf8)
            if let filename = part.filename {
                body += Data("Content-Disposition: form-data; name=\"\(part.name)\"; filename=\"\(filename)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            } else {
                body += Data("Content-Disposition: form-data; name=\"\(part.name)\"\r\n\r\n".utf8)
            }
            body += part.data + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return (ByteBuffer(bytes: body), "multipart/form-data; boundary=\(boundary)")
    }

    static func json(_ response: TestResponse) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
    }
}

/// The built `visage` executable, run as a user would from the package root.
enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// SwiftPM puts the test bundle beside the products it built, `visage` among them.
    static var executable: URL { Bundle.main.bundleURL.appendingPathComponent("visage") }

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}

/// The error of a wait that ran out of time (``ServiceTesting/within(_:_:_:)``).
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    let limit: Duration
    var description: String { "\(what) did not finish within \(limit)" }
}

/// One continuation resumed by the first of several finishers.
final class Race<R: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<R, any Error>?
    private var result: Result<R, any Error>?
    private var finished: (@Sendable () -> Void)?

    func start(_ continuation: CheckedContinuation<R, any Error>) {
        lock.withLock { self.continuation = continuation }
    }

    /// Resumes with `result` if nothing has yet; true when this call did.
    @discardableResult func finish(_ result: Result<R, any Error>) -> Bool {
        let (continuation, action) = lock.withLock { () -> (CheckedContinuation<R, any Error>?, (@Sendable () -> Void)?) in
            guard self.result == nil else { return (nil, nil) }
            self.result = result
            defer { (self.continuation, finished) = (nil, nil) }
            return (self.continuation, finished)
        }
        guard let continuation else { return false }
        continuation.resume(with: result)
        action?()
        return true
    }

    /// Runs `action` once the race is decided (at once if it is).
    func onFinish(_ action: @escaping @Sendable () -> Void) {
        let decided = lock.withLock { () -> Bool in
            if result != nil { return true }
            finished = action
            return false
        }
        if decided { action() }
    }
}
