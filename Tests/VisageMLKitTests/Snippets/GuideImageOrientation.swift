// The guide's "Get the image orientation" function, copied into app code as written (it shadows
// VisageMLKit's own helper of the same name). Only the import lines differ from the iOS code.
#if canImport(MLKitFaceDetection)
import MLKitFaceDetection
import MLKitVision
import UIKit
import AVFoundation
#else
import VisageMLKit
#endif

enum AppOrientation {
    static func imageOrientation(
      deviceOrientation: UIDeviceOrientation,
      cameraPosition: AVCaptureDevice.Position
    ) -> UIImage.Orientation {
      switch deviceOrientation {
      case .portrait:
        return cameraPosition == .front ? .leftMirrored : .right
      case .landscapeLeft:
        return cameraPosition == .front ? .downMirrored : .up
      case .portraitUpsideDown:
        return cameraPosition == .front ? .rightMirrored : .left
      case .landscapeRight:
        return cameraPosition == .front ? .upMirrored : .down
      case .faceDown, .faceUp, .unknown:
        return .up
      }
    }

    /// A camera frame wrapped as the guide does, with the current device's orientation.
    static func visionImage(_ frame: UIImage, cameraPosition: AVCaptureDevice.Position) -> VisionImage {
        let image = VisionImage(image: frame)
        image.orientation = imageOrientation(deviceOrientation: UIDevice.current.orientation, cameraPosition: cameraPosition)
        return image
    }
}
