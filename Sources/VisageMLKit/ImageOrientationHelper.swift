/// The image orientation ML Kit needs for a camera frame, from the device's orientation and the camera's
/// position: the mapping of Google's ML Kit guide ("Get the image orientation"), front camera mirrored.
///
/// | device | back camera | front camera |
/// |---|---|---|
/// | portrait | right | leftMirrored |
/// | landscapeLeft | up | downMirrored |
/// | portraitUpsideDown | left | rightMirrored |
/// | landscapeRight | down | upMirrored |
/// | faceUp, faceDown, unknown | up | up |
///
/// Apps that copy the guide's own function keep theirs: a function in the app's module shadows this one.
public func imageOrientation(
    deviceOrientation: UIDeviceOrientation, cameraPosition: AVCaptureDevice.Position
) -> UIImage.Orientation {
    switch deviceOrientation {
    case .portrait: cameraPosition == .front ? .leftMirrored : .right
    case .landscapeLeft: cameraPosition == .front ? .downMirrored : .up
    case .portraitUpsideDown: cameraPosition == .front ? .rightMirrored : .left
    case .landscapeRight: cameraPosition == .front ? .upMirrored : .down
    case .faceDown, .faceUp, .unknown: .up
    }
}
