import Foundation

/// MediaPipe's 478-point face mesh of one face: 468 surface points and 5 per iris.
///
/// Points are MediaPipe's normalized landmarks in the upright picture: `x` and `y` in 0…1 of the width
/// and height, origin top left, y down; `z` is depth relative to the face's centre on the scale of `x`
/// (smaller is nearer the camera). Index meanings follow MediaPipe's canonical face mesh: 1 nose tip,
/// 33/263 outer eye corners, 468 the iris centre in the eye on the picture's left of a frontal face
/// (the subject's right eye), 473 the other.
public struct FaceMesh: Sendable, Hashable {
    /// Number of points the mesh v2 model gives.
    public static let pointCount = 478
    /// Points on the face surface (the canonical face model's vertices); the irises follow.
    public static let surfacePointCount = 468

    public var points: [SIMD3<Float>]
    /// Probability that the region held a face (sigmoid of the model's presence logit); MediaPipe keeps a
    /// mesh when it exceeds 0.5.
    public var presence: Float
    /// The upright picture's size in pixels.
    public var imageWidth: Int
    public var imageHeight: Int

    public init(points: [SIMD3<Float>], presence: Float, imageWidth: Int, imageHeight: Int) {
        self.points = points
        self.presence = presence
        (self.imageWidth, self.imageHeight) = (imageWidth, imageHeight)
    }

    /// Decodes the mesh model's outputs for the face cut out by `region`.
    ///
    /// As MediaPipe's tasks graph (`TensorsToLandmarksCalculator` then `LandmarkProjectionCalculator`):
    /// coordinates in input pixels are divided by the input size, centred, turned by the region's rotation
    /// and scaled by its size; `z` is scaled by the length, in normalized image units, of one normalized
    /// step along the input's x axis (the region's side over the image width when the region is upright,
    /// more on a non-square picture when it is turned).
    ///
    /// - Parameters:
    ///   - landmarks: the 1434 values (478 × x, y, z in input pixels).
    ///   - presenceLogit: the face-presence output before its sigmoid.
    /// - Throws: ``LandmarkError`` when the output has the wrong size or holds NaN or infinity.
    public init(landmarks: some Collection<Float>, presenceLogit: Float, region: MeshRegion) throws(LandmarkError) {
        guard landmarks.count == 3 * Self.pointCount else {
            throw .outputSize(name: "landmarks", count: landmarks.count, expected: 3 * Self.pointCount)
        }
        guard presenceLogit.isFinite else { throw .nonFiniteOutput(name: "presence", index: 0) }
        let size = Double(MeshRegion.tensorSize)
        let scaleX = region.side / Double(region.imageWidth), scaleY = region.height / Double(region.imageHeight)
        let (s, c) = (sin(region.rotation), cos(region.rotation))
        let depthScale = (c * c * scaleX * scaleX + s * s * scaleY * scaleY).squareRoot()
        let centerX = region.centerX / Double(region.imageWidth), centerY = region.centerY / Double(region.imageHeight)
        var points = [SIMD3<Float>]()
        points.reserveCapacity(Self.pointCount)
        var values = landmarks.makeIterator()
        for index in 0..<Self.pointCount {
            let rx = values.next()!, ry = values.next()!, rz = values.next()!
            guard rx.isFinite, ry.isFinite, rz.isFinite else { throw .nonFiniteOutput(name: "landmarks", index: 3 * index) }
            let x = Double(rx) / size - 0.5, y = Double(ry) / size - 0.5
            points.append(SIMD3(
                Float((c * x - s * y) * scaleX + centerX),
                Float((s * x + c * y) * scaleY + centerY),
                Float(Double(rz) / size * depthScale)))
        }
        self.init(points: points, presence: 1 / (1 + exp(-presenceLogit)), imageWidth: region.imageWidth, imageHeight: region.imageHeight)
    }

    /// Whether MediaPipe would keep this mesh (presence above 0.5).
    public var isFacePresent: Bool { presence > 0.5 }

    /// Point `index` in upright pixels, origin top left.
    public func pixel(_ index: Int) -> SIMD2<Double> {
        SIMD2(Double(points[index].x) * Double(imageWidth), Double(points[index].y) * Double(imageHeight))
    }

    /// The smallest upright pixel rectangle holding every point: (x, y) top left, width, height.
    public var pixelBounds: (x: Double, y: Double, width: Double, height: Double) {
        var low = SIMD2<Double>(repeating: .infinity), high = SIMD2<Double>(repeating: -.infinity)
        for index in points.indices {
            let p = pixel(index)
            low = pointwiseMin(low, p)
            high = pointwiseMax(high, p)
        }
        return points.isEmpty ? (0, 0, 0, 0) : (low.x, low.y, high.x - low.x, high.y - low.y)
    }
}
