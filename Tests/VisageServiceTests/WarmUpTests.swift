import Foundation
import Logging
import ServiceLifecycle
import Testing
import Visage
import VisageService

/// The models' warm-up against the service's life: a warm-up that fails ends the service with its
/// error, and shutdown (SIGTERM's graceful shutdown, or cancellation) ends a service whose warm-up never
/// returns instead of waiting for it.
@Suite(.serialized) struct WarmUpTests {
    typealias T = ServiceTesting

    @available(macOS 15, *)
    @Test func aWarmUpThatFailsEndsTheServiceWithItsError() async throws {
        let failure = ModelFileError.altered(model: "face_landmarks_detector.tflite", reason: "100000 bytes, expected 2553590")
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer(warmUpError: failure))
        do {
            try await T.within(.seconds(60), "the service ending after its warm-up failed") {
                try await withServiceExecutor { try await app.run() }
            }
            Issue.record("the service ended without an error")
        } catch let error as ModelFileError {
            #expect(error == failure)
        }
    }

    /// Graceful shutdown (what SIGTERM triggers in `visage serve`) while the warm-up is stuck: the
    /// service stops listening and returns, without waiting for the warm-up.
    @available(macOS 15, *)
    @Test func gracefulShutdownEndsAServiceWhoseWarmUpNeverReturns() async throws {
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        let analyzer = FakeAnalyzer(warmUpGate: gate)
        let app = try buildApplication(T.configuration(), analyzer: analyzer)
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "test")))
        try await T.within(.seconds(60), "the service ending on shutdown while its warm-up never returns") {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await withServiceExecutor { try await group.run() } }
                try await Task.sleep(for: .milliseconds(300))
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }

    /// Cancellation likewise.
    @available(macOS 15, *)
    @Test func cancellationEndsAServiceWhoseWarmUpNeverReturns() async throws {
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        let app = try buildApplication(T.configuration(), analyzer: FakeAnalyzer(warmUpGate: gate))
        let ended = try await T.within(.seconds(60), "the service ending on cancellation while its warm-up never returns") {
            let run = Task { try await withServiceExecutor { try await app.run() } }
            try await Task.sleep(for: .milliseconds(300))
            run.cancel()
            _ = await run.result
            return true
        }
        #expect(ended)
    }
}
