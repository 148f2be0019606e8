import VisageGeometry
import VisageImage

/// A square region of the upright picture that one detector pass sees, and the maps into and out of it.
///
/// The whole-image window is MediaPipe's letterbox: the picture centred in a square of its longer side,
/// the rest black. Accurate mode also runs smaller windows (tiles). The window carries the transform
/// both ways so results are projected back once, at the end (MediaPipe's `DetectionProjectionCalculator`).
package struct DetectionWindow: Sendable, Hashable {
    /// Top-left corner in upright pixels; may be negative (the letterbox border).
    package var originX: Double
    package var originY: Double
    /// Side of the square in upright pixels.
    package var side: Double
    /// The upright picture's size in pixels.
    package var imageWidth: Int
    package var imageHeight: Int

    package init(originX: Double, originY: Double, side: Double, imageWidth: Int, imageHeight: Int) {
        (self.originX, self.originY, self.side) = (originX, originY, side)
        (self.imageWidth, self.imageHeight) = (imageWidth, imageHeight)
    }

    /// The letterbox around the whole upright picture of `width × height` pixels.
    package static func letterbox(width: Int, height: Int) -> DetectionWindow {
        let side = Double(max(width, height))
        return DetectionWindow(
            originX: (Double(width) - side) / 2, originY: (Double(height) - side) / 2, side: side,
            imageWidth: width, imageHeight: height)
    }

    /// The map from a pixel of the `size × size` input tensor to the stored pixel it samples, for
    /// ``Image/warpAffine(into:width:height:transform:valueRange:border:)``.
    ///
    /// As MediaPipe's OpenCV path (`warpPerspective` from the window's corners to the tensor's corners),
    /// tensor pixel (x, y) samples upright pixel (originX + x·s, originY + y·s) with s = side / size, in
    /// the pixel-index coordinates OpenCV uses. The orientation's rotation or mirroring is folded in, so
    /// a stored image is never rotated first.
    package func warpTransform(tensorSize size: Int, rawWidth: Int, rawHeight: Int, orientation: ImageOrientation) -> PixelTransform {
        let scale = side / Double(size)
        let (uprightWidth, uprightHeight) = (Double(imageWidth), Double(imageHeight))
        func raw(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
            // Upright pixel index → unit square → stored unit square → stored pixel index.
            let u = (originX + x * scale + 0.5) / uprightWidth
            let v = (originY + y * scale + 0.5) / uprightHeight
            let point = orientation.rawUnitPoint(fromUpright: u, v)
            return (point.x * Double(rawWidth) - 0.5, point.y * Double(rawHeight) - 0.5)
        }
        // Every orientation is affine, so three points determine the map.
        let origin = raw(0, 0), xStep = raw(1, 0), yStep = raw(0, 1)
        return PixelTransform(
            a: xStep.x - origin.x, b: yStep.x - origin.x, c: xStep.y - origin.y, d: yStep.y - origin.y,
            tx: origin.x, ty: origin.y)
    }

    /// True when `detection` (normalized to the upright picture) reaches within 2 % of the window's side
    /// of an edge that lies inside the picture: the face is probably cut by the window.
    package func cuts(_ detection: Detection) -> Bool {
        let margin = side * 0.02
        let (width, height) = (Double(imageWidth), Double(imageHeight))
        let left = Double(detection.xMin) * width, right = Double(detection.xMax) * width
        let top = Double(detection.yMin) * height, bottom = Double(detection.yMax) * height
        return (originX > 0 && left < originX + margin)
            || (originY > 0 && top < originY + margin)
            || (originX + side < width && right > originX + side - margin)
            || (originY + side < height && bottom > originY + side - margin)
    }

    /// A detection normalized to the window (the tensor) mapped to the upright picture, normalized.
    package func project(_ detection: Detection) -> Detection {
        let sx = side / Double(imageWidth), sy = side / Double(imageHeight)
        let ox = originX / Double(imageWidth), oy = originY / Double(imageHeight)
        var result = detection
        result.xMin = Float(ox + Double(detection.xMin) * sx)
        result.yMin = Float(oy + Double(detection.yMin) * sy)
        result.width = Float(Double(detection.width) * sx)
        result.height = Float(Double(detection.height) * sy)
        result.keypoints = detection.keypoints.map {
            SIMD2(Float(ox + Double($0.x) * sx), Float(oy + Double($0.y) * sy))
        }
        return result
    }
}
