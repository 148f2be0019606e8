// ML Kit's face detection API (`import MLKitFaceDetection`, `MLKitVision`) over Visage's FaceDetector.
// Only ML Kit's names are public: Visage's own `FaceDetector`, `Face`, … stay out of scope, so
// `import VisageMLKit` never meets them. `UIImage` is the stand-in shared with VisageVision.
@_exported import Foundation
@_exported import VisageImageStandIns
