import Foundation
import VisageImage

/// How suitable a face's capture is for recognition or a portrait, as Vision's `captureQuality`: a
/// score in 0…1 meant for ranking captures of the same person (higher is better), not an absolute grade.
///
/// The score is the weighted geometric mean of five factors, each in 0…1:
///
/// | factor | measured as | weight |
/// |---|---|---|
/// | sharpness | v / (v + 60), v the variance of the 4-neighbour Laplacian of the luminance (0…255) over the face in a 96×96 crop of the mesh's region | 0.30 |
/// | frontal pose | exp(−(yaw² + pitch²) / (2·(25°)²)) | 0.25 |
/// | open eyes | the mean of the two eye-open probabilities | 0.15 |
/// | exposure | 1 − ((m − 0.5) / 0.45)², clamped to 0…1, m the face's mean luminance in 0…1 | 0.15 |
/// | size | 1 − exp(−w / 64), w the mesh's width in pixels | 0.15 |
///
/// Each factor is floored at 0.01 before the mean, so one bad factor lowers the score a lot without
/// zeroing it. The crop samples the face at a fixed 96 pixels whatever its size, so a small face is
/// upsampled and measures less sharp, as it is. The 60 in the sharpness factor is the Laplacian variance
/// at which it gives 0.5: the sharp 640×480 fixture face (`astronaut.jpg`) measures about 1570 (0.96), its
/// 5×5 box blur about 210 (0.78), so a blur lowers the factor without zeroing it.
public struct CaptureQuality: Sendable, Hashable {
    public var score: Float
    public var sharpness: Float
    public var frontality: Float
    public var eyesOpen: Float
    public var exposure: Float
    public var size: Float

    static let cropSize = 96
    static let weights = (sharpness: 0.30, frontality: 0.25, eyesOpen: 0.15, exposure: 0.15, size: 0.15)

    /// Measures the face that `mesh` outlines in `image` (its stored pixels; the orientation is honoured),
    /// with its fitted `pose` and its `classification`.
    ///
    /// - Throws: ``CaptureQualityError`` when the mesh does not belong to the image's upright size or cannot
    ///   frame a region.
    public init(image: Image, mesh: FaceMesh, pose: HeadPose, classification: FaceClassification) throws(CaptureQualityError) {
        try self.init(window: ImageWindow(image), mesh: mesh, pose: pose, classification: classification)
    }

    /// ``init(image:mesh:pose:classification:)`` on a window of the picture (a region decode) that holds
    /// the pixels of the mesh's region (``RegionSource/window(covering:reusing:)``).
    package init(window image: ImageWindow, mesh: FaceMesh, pose: HeadPose, classification: FaceClassification) throws(CaptureQualityError) {
        let upright = image.uprightSize
        guard upright.width == mesh.imageWidth, upright.height == mesh.imageHeight else {
            throw .imageMismatch(meshWidth: mesh.imageWidth, meshHeight: mesh.imageHeight, imageWidth: upright.width, imageHeight: upright.height)
        }
        let region: MeshRegion
        do {
            region = try MeshRegion(tracking: mesh)
        } catch {
            throw .degenerateFace(reason: error.description)
        }
        let n = Self.cropSize
        var crop = [Float](repeating: 0, count: n * n * 3)
        crop.withUnsafeMutableBufferPointer {
            image.warpAffine(
                into: $0, width: n, height: n,
                transform: region.warpTransform(tensorSize: n, rawWidth: image.pictureWidth, rawHeight: image.pictureHeight, orientation: image.orientation),
                valueRange: 0...255, border: .replicate)
        }
        var luminance = [Double](repeating: 0, count: n * n)
        for i in 0..<(n * n) {
            let (r, g, b) = (Double(crop[3 * i]), Double(crop[3 * i + 1]), Double(crop[3 * i + 2]))
            luminance[i] = 0.299 * r + 0.587 * g + 0.114 * b
        }
        // The region is 1.5× the face: its middle two thirds are the face.
        let inner = (n / 6)..<(n - n / 6)
        var sum = 0.0, laplacians = [Double]()
        for y in inner {
            for x in inner {
                let c = luminance[y * n + x]
                sum += c
                let horizontal = luminance[y * n + x - 1] + luminance[y * n + x + 1]
                let vertical = luminance[(y - 1) * n + x] + luminance[(y + 1) * n + x]
                laplacians.append(4 * c - horizontal - vertical)
            }
        }
        let mean = laplacians.reduce(0, +) / Double(laplacians.count)
        let variance = laplacians.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(laplacians.count)
        let brightness = sum / Double(inner.count * inner.count) / 255

        sharpness = Float(variance / (variance + 60))
        let sigma = 25 * Double.pi / 180
        frontality = Float(exp(-(pose.yaw * pose.yaw + pose.pitch * pose.pitch) / (2 * sigma * sigma)))
        eyesOpen = (classification.leftEyeOpenProbability + classification.rightEyeOpenProbability) / 2
        exposure = Float(max(0, min(1, 1 - pow((brightness - 0.5) / 0.45, 2))))
        size = Float(1 - exp(-mesh.pixelBounds.width / 64))
        score = Self.combine(sharpness: sharpness, frontality: frontality, eyesOpen: eyesOpen, exposure: exposure, size: size)
    }

    /// The weighted geometric mean of the factors, each floored at 0.01.
    static func combine(sharpness: Float, frontality: Float, eyesOpen: Float, exposure: Float, size: Float) -> Float {
        let w = weights
        let terms = [(sharpness, w.sharpness), (frontality, w.frontality), (eyesOpen, w.eyesOpen), (exposure, w.exposure), (size, w.size)]
        let logSum = terms.reduce(0.0) { $0 + $1.1 * log(max(0.01, Double($1.0.isNaN ? 0 : $1.0))) }
        return Float(exp(logSum))
    }
}
