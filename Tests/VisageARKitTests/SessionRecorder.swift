import Foundation
import VisageARKit

/// Stands between a session and a snippet's delegate: forwards every call and records what arrived,
/// on which queue, until the session ends.
final class SessionRecorder: ARSessionDelegate, @unchecked Sendable {
    struct Call {
        var kind: String
        var anchors: [ARFaceAnchor]
        var onExpectedQueue: Bool
    }

    let forward: ARSessionDelegate?
    let queueKey = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "recorder")
    private(set) var calls: [Call] = []
    private(set) var frames: [ARFrame] = []
    private(set) var error: ARError?
    private(set) var ended = false
    private let done = DispatchSemaphore(value: 0)

    init(forwardingTo forward: ARSessionDelegate?) {
        self.forward = forward
        queue.setSpecific(key: queueKey, value: "recorder")
    }

    private var onQueue: Bool { DispatchQueue.getSpecific(key: queueKey) == "recorder" }

    func session(_ session: ARSession, didUpdate frame: ARFrame) {
        frames.append(frame)
        calls.append(Call(kind: "frame", anchors: [], onExpectedQueue: onQueue))
        forward?.session(session, didUpdate: frame)
    }

    func session(_ session: ARSession, didAdd anchors: [ARAnchor]) {
        calls.append(Call(kind: "add", anchors: anchors.compactMap { $0 as? ARFaceAnchor }, onExpectedQueue: onQueue))
        forward?.session(session, didAdd: anchors)
    }

    func session(_ session: ARSession, didUpdate anchors: [ARAnchor]) {
        calls.append(Call(kind: "update", anchors: anchors.compactMap { $0 as? ARFaceAnchor }, onExpectedQueue: onQueue))
        forward?.session(session, didUpdate: anchors)
    }

    func session(_ session: ARSession, didRemove anchors: [ARAnchor]) {
        calls.append(Call(kind: "remove", anchors: anchors.compactMap { $0 as? ARFaceAnchor }, onExpectedQueue: onQueue))
        forward?.session(session, didRemove: anchors)
    }

    func session(_ session: ARSession, didFailWithError error: any Error) {
        self.error = error as? ARError
        done.signal()
    }

    func sessionWasInterrupted(_ session: ARSession) {
        ended = true
        done.signal()
    }

    /// Waits for the end or a failure, at most `seconds`; false on timeout.
    func wait(seconds: Double) -> Bool {
        done.wait(timeout: .now() + seconds) == .success
    }
}
