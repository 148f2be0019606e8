#if canImport(Vision)
import UIKit
import Vision
#else
import VisageVision
#endif

/// Detect faces in a photo and turn Vision's boxes (normalized, origin lower left) into UIKit
/// rectangles (points, origin upper left) for drawing: the y-flip every tutorial writes.
func faceBoxesForDrawing(in image: UIImage) throws -> [CGRect] {
    guard let cgImage = image.cgImage else { return [] }
    let request = VNDetectFaceRectanglesRequest()
    let handler = VNImageRequestHandler(
        cgImage: cgImage, orientation: CGImagePropertyOrientation(image.imageOrientation), options: [:])
    try handler.perform([request])
    guard let observations = request.results else { return [] }
    return observations.map { face in
        let box = face.boundingBox
        return CGRect(
            x: box.origin.x * image.size.width,
            y: (1 - box.origin.y - box.size.height) * image.size.height,
            width: box.size.width * image.size.width,
            height: box.size.height * image.size.height)
    }
}

/// The same through `VNImageRectForNormalizedRect` and a flip of the pixel rectangle.
func faceBoxesWithHelper(in image: UIImage) throws -> [CGRect] {
    guard let cgImage = image.cgImage else { return [] }
    let request = VNDetectFaceRectanglesRequest()
    try VNImageRequestHandler(cgImage: cgImage, orientation: CGImagePropertyOrientation(image.imageOrientation))
        .perform([request])
    let width = Int(image.size.width), height = Int(image.size.height)
    return (request.results ?? []).map { face in
        let rect = VNImageRectForNormalizedRect(face.boundingBox, width, height)
        return CGRect(x: rect.minX, y: CGFloat(height) - rect.maxY, width: rect.width, height: rect.height)
    }
}

/// The same with Core Graphics transforms: scale to pixels, then flip the y axis.
func faceBoxesWithTransforms(in image: UIImage) throws -> [CGRect] {
    guard let cgImage = image.cgImage else { return [] }
    let request = VNDetectFaceRectanglesRequest()
    try VNImageRequestHandler(cgImage: cgImage, orientation: CGImagePropertyOrientation(image.imageOrientation))
        .perform([request])
    let scale = CGAffineTransform.identity.scaledBy(x: image.size.width, y: image.size.height)
    let flip = CGAffineTransform(scaleX: 1, y: -1).translatedBy(x: 0, y: -image.size.height)
    return (request.results ?? []).map { $0.boundingBox.applying(scale).applying(flip) }
}

/// Head angles as apps log them.
func headAngles(of url: URL) throws -> [(roll: Double, yaw: Double, pitch: Double?)] {
    let request = VNDetectFaceRectanglesRequest()
    request.revision = VNDetectFaceRectanglesRequestRevision3
    try VNImageRequestHandler(url: url, options: [:]).perform([request])
    guard let faces = request.results else { return [] }
    return faces.compactMap { face in
        guard let roll = face.roll, let yaw = face.yaw else { return nil }
        return (roll.doubleValue * 180 / .pi, yaw.doubleValue * 180 / .pi, face.pitch.map { $0.doubleValue * 180 / .pi })
    }
}
