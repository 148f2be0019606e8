import Foundation
import VisageNN

/// The face-mesh stage shared by every request: analyzers loaded once per process and lent out per call.
///
/// A ``FaceMeshAnalyzer`` owns interpreters with mutable arenas, so each call borrows one from a small
/// pool and returns it; concurrent calls never share one, and the models are parsed and verified once.
package final class FaceMeshRunner: @unchecked Sendable {  // `idle` is guarded by `lock`.
    private let lock = NSLock()
    private var idle: [FaceMeshAnalyzer]
    /// Idle analyzers kept: enough for the cores. Read once: Foundation reads the cgroup files on every call.
    private static let idleLimit = AvailableCores.count

    /// The process's runner, created on first use; a load failure is kept and reported on every call.
    package static func shared() throws(FaceDetectionError) -> FaceMeshRunner {
        try instance.get()
    }

    private static let instance = Result { () throws(FaceDetectionError) in try FaceMeshRunner() }

    private init() throws(FaceDetectionError) {
        idle = [try Self.makeAnalyzer()]
    }

    /// Runs `body` with an analyzer no other call is using.
    package func withAnalyzer<T>(_ body: (FaceMeshAnalyzer) throws(FaceDetectionError) -> T) throws(FaceDetectionError) -> T {
        let analyzer: FaceMeshAnalyzer
        if let lent = lock.withLock({ idle.popLast() }) {
            analyzer = lent
        } else {
            analyzer = try Self.makeAnalyzer()
        }
        defer {
            lock.withLock {
                if idle.count < Self.idleLimit { idle.append(analyzer) }
            }
        }
        return try body(analyzer)
    }

    private static func makeAnalyzer() throws(FaceDetectionError) -> FaceMeshAnalyzer {
        do {
            return try FaceMeshAnalyzer()
        } catch {
            throw .landmarks(reason: error.description)
        }
    }
}
