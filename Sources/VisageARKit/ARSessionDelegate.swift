/// ARKit's `ARSessionObserver`: the session's state changes. Every method is optional.
public protocol ARSessionObserver: AnyObject {
    /// The session stopped because of `error` (an ``ARError``).
    func session(_ session: ARSession, didFailWithError error: any Error)
    /// The session stopped delivering frames: on Linux, the end of a file input. Running again starts
    /// the input from its beginning.
    func sessionWasInterrupted(_ session: ARSession)
    func sessionInterruptionEnded(_ session: ARSession)
}

extension ARSessionObserver {
    public func session(_ session: ARSession, didFailWithError error: any Error) {}
    public func sessionWasInterrupted(_ session: ARSession) {}
    public func sessionInterruptionEnded(_ session: ARSession) {}
}

/// ARKit's `ARSessionDelegate`: frames and anchors as they are analysed. Every method is optional; each
/// is called on ``ARSession/delegateQueue`` (or the session's own serial queue when that is nil).
public protocol ARSessionDelegate: ARSessionObserver {
    /// Every analysed frame, before the anchor callbacks of that frame.
    func session(_ session: ARSession, didUpdate frame: ARFrame)
    /// Faces seen for the first time.
    func session(_ session: ARSession, didAdd anchors: [ARAnchor])
    /// Every known face in every frame after the one that added it, tracked or not.
    func session(_ session: ARSession, didUpdate anchors: [ARAnchor])
    /// Faces forgotten: on ``ARSession/RunOptions/removeExistingAnchors``.
    func session(_ session: ARSession, didRemove anchors: [ARAnchor])
}

extension ARSessionDelegate {
    public func session(_ session: ARSession, didUpdate frame: ARFrame) {}
    public func session(_ session: ARSession, didAdd anchors: [ARAnchor]) {}
    public func session(_ session: ARSession, didUpdate anchors: [ARAnchor]) {}
    public func session(_ session: ARSession, didRemove anchors: [ARAnchor]) {}
}
