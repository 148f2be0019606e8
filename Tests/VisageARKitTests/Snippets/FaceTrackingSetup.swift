// The session set-up of ARKit's face-tracking sample code, without the view. `videoInput` is the one
// line Linux needs.
#if canImport(ARKit)
import ARKit
#else
import VisageARKit
#endif

enum FaceTrackingSetup {
    static func start(_ session: ARSession, delegate: ARSessionDelegate, video: String?) {
        let configuration = ARFaceTrackingConfiguration()
        configuration.isLightEstimationEnabled = true
        configuration.maximumNumberOfTrackedFaces = ARFaceTrackingConfiguration.supportedNumberOfTrackedFaces
        #if !canImport(ARKit)
        configuration.videoInput = video
        #endif
        session.delegate = delegate
        session.run(configuration, options: [.resetTracking, .removeExistingAnchors])
    }
}
