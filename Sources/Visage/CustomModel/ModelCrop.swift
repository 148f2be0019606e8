import Foundation
import VisageImage

/// The rotated rectangle of the upright picture that fills a custom model's input, and the maps between
/// the two.
///
/// Coordinates are continuous upright pixels (pixel `i` covers `[i, i + 1)`, origin top left, y down), so
/// the whole picture is the rectangle centred at (width/2, height/2) with its size, and a model input of
/// the picture's own size samples each pixel at its centre, untouched. Tensor pixel `(u, v)` of a
/// `W × H` input has its centre at `center + R(rotation) · (((u + ½)/W − ½)·width, ((v + ½)/H − ½)·height)`.
public struct ModelCrop: Sendable, Hashable {
    public var centerX: Double
    public var centerY: Double
    public var width: Double
    public var height: Double
    /// Radians; positive turns the rectangle clockwise on screen (y down), as ``MeshRegion``.
    public var rotation: Double

    public init(centerX: Double, centerY: Double, width: Double, height: Double, rotation: Double = 0) {
        (self.centerX, self.centerY, self.width, self.height, self.rotation) = (centerX, centerY, width, height, rotation)
    }

    /// The whole `width × height` picture.
    public init(wholeImageWidth width: Int, height: Int) {
        self.init(centerX: Double(width) / 2, centerY: Double(height) / 2, width: Double(width), height: Double(height))
    }

    /// The upright point (continuous pixels) at continuous tensor coordinates `(x, y)` of a `W × H` input.
    public func uprightPoint(tensorX x: Double, tensorY y: Double, tensorWidth: Int, tensorHeight: Int) -> SIMD2<Double> {
        let dx = (x / Double(tensorWidth) - 0.5) * width, dy = (y / Double(tensorHeight) - 0.5) * height
        let (s, c) = (sin(rotation), cos(rotation))
        return SIMD2(centerX + c * dx - s * dy, centerY + s * dx + c * dy)
    }

    /// The continuous tensor coordinates of the upright point `p` (the inverse of ``uprightPoint(tensorX:tensorY:tensorWidth:tensorHeight:)``).
    public func tensorPoint(upright p: SIMD2<Double>, tensorWidth: Int, tensorHeight: Int) -> SIMD2<Double> {
        let (s, c) = (sin(rotation), cos(rotation))
        let (ex, ey) = (p.x - centerX, p.y - centerY)
        let dx = c * ex + s * ey, dy = -s * ex + c * ey
        return SIMD2((dx / width + 0.5) * Double(tensorWidth), (dy / height + 0.5) * Double(tensorHeight))
    }

    /// The map from a tensor pixel index to the stored pixel index it samples, for
    /// ``Image/warpAffine(into:width:height:transform:valueRange:border:roundedToLevels:)``; the image's
    /// orientation is folded in, so the stored pixels are never turned first.
    public func warpTransform(
        tensorWidth: Int, tensorHeight: Int, rawWidth: Int, rawHeight: Int, orientation: ImageOrientation
    ) -> PixelTransform {
        let upright = orientation.uprightSize(rawWidth: rawWidth, rawHeight: rawHeight)
        func raw(_ u: Double, _ v: Double) -> (x: Double, y: Double) {
            let p = uprightPoint(tensorX: u + 0.5, tensorY: v + 0.5, tensorWidth: tensorWidth, tensorHeight: tensorHeight)
            let unit = orientation.rawUnitPoint(fromUpright: p.x / Double(upright.width), p.y / Double(upright.height))
            return (unit.x * Double(rawWidth) - 0.5, unit.y * Double(rawHeight) - 0.5)
        }
        let origin = raw(0, 0), xStep = raw(1, 0), yStep = raw(0, 1)
        return PixelTransform(
            a: xStep.x - origin.x, b: yStep.x - origin.x, c: xStep.y - origin.y, d: yStep.y - origin.y,
            tx: origin.x, ty: origin.y)
    }
}
