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

// The region-of-interest forms (iOS 15): normalized values are relative to `roi`, itself normalized to
// the image, as the results of a request with `regionOfInterest` set are.

public func VNImagePointForNormalizedPointUsingRegionOfInterest(
    _ normalizedPoint: CGPoint, _ imageWidth: Int, _ imageHeight: Int, _ roi: CGRect
) -> CGPoint {
    VNImagePointForNormalizedPoint(
        CGPoint(x: roi.origin.x + normalizedPoint.x * roi.size.width, y: roi.origin.y + normalizedPoint.y * roi.size.height),
        imageWidth, imageHeight)
}

public func VNNormalizedPointForImagePointUsingRegionOfInterest(
    _ imagePoint: CGPoint, _ imageWidth: Int, _ imageHeight: Int, _ roi: CGRect
) -> CGPoint {
    let point = VNNormalizedPointForImagePoint(imagePoint, imageWidth, imageHeight)
    return CGPoint(x: (point.x - roi.origin.x) / roi.size.width, y: (point.y - roi.origin.y) / roi.size.height)
}

public func VNImageRectForNormalizedRectUsingRegionOfInterest(
    _ normalizedRect: CGRect, _ imageWidth: Int, _ imageHeight: Int, _ roi: CGRect
) -> CGRect {
    VNImageRectForNormalizedRect(
        CGRect(x: roi.origin.x + normalizedRect.origin.x * roi.size.width,
               y: roi.origin.y + normalizedRect.origin.y * roi.size.height,
               width: normalizedRect.size.width * roi.size.width, height: normalizedRect.size.height * roi.size.height),
        imageWidth, imageHeight)
}

public func VNNormalizedRectForImageRectUsingRegionOfInterest(
    _ imageRect: CGRect, _ imageWidth: Int, _ imageHeight: Int, _ roi: CGRect
) -> CGRect {
    let rect = VNNormalizedRectForImageRect(imageRect, imageWidth, imageHeight)
    return CGRect(x: (rect.origin.x - roi.origin.x) / roi.size.width, y: (rect.origin.y - roi.origin.y) / roi.size.height,
                  width: rect.size.width / roi.size.width, height: rect.size.height / roi.size.height)
}
