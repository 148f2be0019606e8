// App code as ARKit tutorials write it (a blink counter on the eye-blink blend shapes); only the import
// lines differ from the iOS original. The Linux-only line is where the configuration is made (see
// `FaceTrackingSetup`).
#if canImport(ARKit)
import ARKit
#else
import VisageARKit
#endif

final class BlinkCounter: NSObject, ARSessionDelegate {
    let closedThreshold: Float
    let openThreshold: Float
    private(set) var blinkCount = 0
    private(set) var leftValues: [Float] = []
    private(set) var rightValues: [Float] = []
    private var eyesClosed = false

    init(closedThreshold: Float = 0.4, openThreshold: Float = 0.25) {
        self.closedThreshold = closedThreshold
        self.openThreshold = openThreshold
    }

    func session(_ session: ARSession, didAdd anchors: [ARAnchor]) {
        handle(anchors)
    }

    func session(_ session: ARSession, didUpdate anchors: [ARAnchor]) {
        handle(anchors)
    }

    private func handle(_ anchors: [ARAnchor]) {
        guard let faceAnchor = anchors.compactMap({ $0 as? ARFaceAnchor }).first, faceAnchor.isTracked else { return }
        guard let left = faceAnchor.blendShapes[.eyeBlinkLeft] as? Float,
              let right = faceAnchor.blendShapes[.eyeBlinkRight] as? Float
        else { return }
        leftValues.append(left)
        rightValues.append(right)
        if !eyesClosed && left > closedThreshold && right > closedThreshold {
            eyesClosed = true
            blinkCount += 1
        } else if eyesClosed && left < openThreshold && right < openThreshold {
            eyesClosed = false
        }
    }
}
