import Foundation

// Vision's coordinate helpers: pure scaling between normalized and pixel coordinates, no y-flip, so
// pixel results keep the lower-left origin. Results are not rounded.

public let VNNormalizedIdentityRect = CGRect(x: 0, y: 0, width: 1, height: 1)

public func VNNormalizedRectIsIdentityRect(_ normalizedRect: CGRect) -> Bool {
    normalizedRect == VNNormalizedIdentityRect
}

public func VNImageRectForNormalizedRect(_ normalizedRect: CGRect, _ imageWidth: Int, _ imageHeight: Int) -> CGRect {
    let w = CGFloat(imageWidth), h = CGFloat(imageHeight)
    return CGRect(x: normalizedRect.origin.x * w, y: normalizedRect.origin.y * h,
                  width: normalizedRect.size.width * w, height: normalizedRect.size.height * h)
}

public func VNNormalizedRectForImageRect(_ imageRect: CGRect, _ imageWidth: Int, _ imageHeight: Int) -> CGRect {
    let w = CGFloat(imageWidth), h = CGFloat(imageHeight)
    return CGRect(x: imageRect.origin.x / w, y: imageRect.origin.y / h,
                  width: imageRect.size.width / w, height: imageRect.size.height / h)
}

public func VNImagePointForNormalizedPoint(_ normalizedPoint: CGPoint, _ imageWidth: Int, _ imageHeight: Int) -> CGPoint {
    CGPoint(x: normalizedPoint.x * CGFloat(imageWidth), y: normalizedPoint.y * CGFloat(imageHeight))
}

public func VNNormalizedPointForImagePoint(_ imagePoint: CGPoint, _ imageWidth: Int, _ imageHeight: Int) -> CGPoint {
    CGPoint(x: imagePoint.x / CGFloat(imageWidth), y: imagePoint.y / CGFloat(imageHeight))
}

/// A landmark point (normalized to `faceBoundingBox`) in pixels of the image, origin at the lower left.
public func VNImagePointForFaceLandmarkPoint(
    _ faceLandmarkPoint: vector_float2, _ faceBoundingBox: CGRect, _ imageWidth: Int, _ imageHeight: Int
) -> CGPoint {
    let x = faceBoundingBox.origin.x + CGFloat(faceLandmarkPoint.x) * faceBoundingBox.size.width
    let y = faceBoundingBox.origin.y + CGFloat(faceLandmarkPoint.y) * faceBoundingBox.size.height
    return VNImagePointForNormalizedPoint(CGPoint(x: x, y: y), imageWidth, imageHeight)
}
