import Foundation
import VisageGeometry
import VisageImage

/// The rotated square of the upright picture that the face-mesh model sees, and the maps into and out of it.
///
/// MediaPipe's region of interest for its 256×256 mesh model (`DetectionsToRectsCalculator` then
/// `RectTransformationCalculator`): centred on the face box, turned so the line between two reference
/// points is horizontal, 1.5× the box's longer side. From a detection the reference points are the
/// detector's right and left eyes (keypoints 0 → 1); from the previous frame's landmarks, the outer eye
/// corners 33 → 263 and the box around all landmarks. MediaPipe's tasks FaceLandmarker scales the
/// detector's box without squaring it, and so does ``init(detection:imageWidth:imageHeight:)``: the
/// detector's boxes are square in pixels to a tenth of a percent, but on a face where the mesh model is
/// unstable that much moves the mesh (takeo.ppm blurred by σ 6: 0.18 px of 1 px to FaceLandmarker's).
/// Every other region is square (as MediaPipe's legacy graph and its tracking make them), which keeps
/// arbitrary boxes (Vision's `inputFaceObservations`) undistorted.
///
/// Everything is in upright pixels (EXIF orientation applied), origin top left, y down.
public struct MeshRegion: Sendable, Hashable {
    /// Centre of the square, upright pixels.
    public var centerX: Double
    public var centerY: Double
    /// Side of the square in pixels; a detection's region is this wide along its turned x axis.
    public var side: Double
    /// Extent along the region's turned y axis in pixels: ``side`` but for a detection's region, which
    /// keeps the detector box's aspect (``init(detection:imageWidth:imageHeight:)``).
    public var height: Double
    /// Rotation in radians, MediaPipe's sign: positive turns the region clockwise on screen (y down).
    public var rotation: Double
    /// The upright picture's size in pixels.
    public var imageWidth: Int
    public var imageHeight: Int

    /// How much larger than the face box the region is (MediaPipe's `scale_x`, `scale_y`).
    public static let scale = 1.5
    /// The mesh model's input side in pixels.
    public static let tensorSize = 256
    /// Landmarks whose line sets the rotation when tracking from a previous mesh: the outer eye corners.
    public static let trackingReference = (start: 33, end: 263)

    public init(centerX: Double, centerY: Double, side: Double, rotation: Double, imageWidth: Int, imageHeight: Int) {
        self.init(centerX: centerX, centerY: centerY, side: side, height: side, rotation: rotation, imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// A region `side` wide and `height` high along its turned axes.
    public init(centerX: Double, centerY: Double, side: Double, height: Double, rotation: Double, imageWidth: Int, imageHeight: Int) {
        (self.centerX, self.centerY, self.side, self.height, self.rotation) = (centerX, centerY, side, height, rotation)
        (self.imageWidth, self.imageHeight) = (imageWidth, imageHeight)
    }

    /// The region around a face box given in upright pixels (`x`, `y` top left), turned so that `start`
    /// → `end` is horizontal.
    ///
    /// - Throws: ``LandmarkError/degenerateRegion(reason:)`` when the box or image is empty, a value is
    ///   not finite, or the region would be absurdly larger than the image (more than 64× its longer side).
    public init(
        box: (x: Double, y: Double, width: Double, height: Double), start: SIMD2<Double>, end: SIMD2<Double>,
        imageWidth: Int, imageHeight: Int
    ) throws(LandmarkError) {
        guard imageWidth > 0, imageHeight > 0 else {
            throw .degenerateRegion(reason: "image is \(imageWidth)×\(imageHeight) pixels")
        }
        let values = [box.x, box.y, box.width, box.height, start.x, start.y, end.x, end.y]
        guard values.allSatisfy(\.isFinite) else { throw .degenerateRegion(reason: "a coordinate is not finite") }
        guard box.width > 0, box.height > 0 else {
            throw .degenerateRegion(reason: "face box is \(box.width)×\(box.height) pixels; both sides must be positive")
        }
        let side = Self.scale * max(box.width, box.height)
        guard side <= 64 * Double(max(imageWidth, imageHeight)) else {
            throw .degenerateRegion(reason: "face box side \(max(box.width, box.height)) is far larger than the \(imageWidth)×\(imageHeight) image")
        }
        let angle = -atan2(-(end.y - start.y), end.x - start.x)
        self.init(
            centerX: box.x + box.width / 2, centerY: box.y + box.height / 2, side: side,
            rotation: Self.normalized(angle), imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// The region for a face box and eye points normalized to the upright picture, origin top left
    /// (MediaPipe's relative coordinates, as a detection carries them).
    public init(
        normalizedBox box: (x: Double, y: Double, width: Double, height: Double),
        rightEye: SIMD2<Double>, leftEye: SIMD2<Double>, imageWidth: Int, imageHeight: Int
    ) throws(LandmarkError) {
        let size = SIMD2(Double(imageWidth), Double(imageHeight))
        try self.init(
            box: (box.x * size.x, box.y * size.y, box.width * size.x, box.height * size.y),
            start: rightEye * size, end: leftEye * size, imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// The region for a face box in Vision's coordinates (normalized to the upright picture, origin at the
    /// lower left), turned by the subject's right and left eyes given the same way; upright without eyes.
    public init(
        boundingBox: NormalizedRect, rightEye: NormalizedPoint? = nil, leftEye: NormalizedPoint? = nil,
        imageWidth: Int, imageHeight: Int
    ) throws(LandmarkError) {
        let (w, h) = (Double(imageWidth), Double(imageHeight))
        var start = SIMD2<Double>(0, 0), end = SIMD2<Double>(1, 0)
        if let rightEye, let leftEye {
            start = SIMD2(rightEye.x * w, (1 - rightEye.y) * h)
            end = SIMD2(leftEye.x * w, (1 - leftEye.y) * h)
        }
        try self.init(
            box: (boundingBox.minX * w, (1 - boundingBox.maxY) * h, boundingBox.width * w, boundingBox.height * h),
            start: start, end: end, imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// The region for a detection normalized to the upright picture (``Detection``'s frame after projection),
    /// turned by its right and left eye keypoints: MediaPipe's tasks FaceLandmarker's, 1.5× the box's width
    /// and 1.5× its height, not squared.
    package init(detection: Detection, imageWidth: Int, imageHeight: Int) throws(LandmarkError) {
        guard detection.keypoints.count > FaceKeypoint.leftEye.rawValue else {
            throw .degenerateRegion(reason: "detection has \(detection.keypoints.count) keypoints; the eyes are needed")
        }
        let right = detection.keypoints[FaceKeypoint.rightEye.rawValue], left = detection.keypoints[FaceKeypoint.leftEye.rawValue]
        try self.init(
            normalizedBox: (Double(detection.xMin), Double(detection.yMin), Double(detection.width), Double(detection.height)),
            rightEye: SIMD2(Double(right.x), Double(right.y)), leftEye: SIMD2(Double(left.x), Double(left.y)),
            imageWidth: imageWidth, imageHeight: imageHeight)
        side = Self.scale * Double(detection.width) * Double(imageWidth)
        height = Self.scale * Double(detection.height) * Double(imageHeight)
    }

    /// The region for the next frame from a mesh (MediaPipe's `FaceLandmarkLandmarksToRoi`): the box
    /// around all points, turned by the outer eye corners.
    ///
    /// - Throws: ``LandmarkError/landmarkCount(_:expected:)`` when the mesh stops before the left eye's
    ///   outer corner (264 points), ``LandmarkError/degenerateRegion(reason:)`` as the box initializer.
    public init(tracking mesh: FaceMesh) throws(LandmarkError) {
        guard mesh.points.count > Self.trackingReference.end else {
            throw .landmarkCount(mesh.points.count, expected: Self.trackingReference.end + 1)
        }
        let pixels = (0..<mesh.points.count).map { mesh.pixel($0) }
        var low = SIMD2<Double>(repeating: .infinity), high = SIMD2<Double>(repeating: -.infinity)
        for p in pixels {
            low = pointwiseMin(low, p)
            high = pointwiseMax(high, p)
        }
        try self.init(
            box: (low.x, low.y, high.x - low.x, high.y - low.y),
            start: pixels[Self.trackingReference.start], end: pixels[Self.trackingReference.end],
            imageWidth: mesh.imageWidth, imageHeight: mesh.imageHeight)
    }

    /// `angle` wrapped into [−π, π), as MediaPipe's `NormalizeRadians`.
    static func normalized(_ angle: Double) -> Double {
        angle - 2 * .pi * ((angle + .pi) / (2 * .pi)).rounded(.down)
    }

    /// The upright pixel that the point (`u`, `v`) of the model's input, in tensor pixels, comes from.
    ///
    /// MediaPipe maps the region's corners onto the tensor's corners (OpenCV `warpPerspective`), so
    /// tensor coordinate t covers (t/size − ½)·side along the region's turned axes.
    public func uprightPoint(tensorX u: Double, tensorY v: Double, tensorSize: Int = Self.tensorSize) -> SIMD2<Double> {
        let x = (u / Double(tensorSize) - 0.5) * side, y = (v / Double(tensorSize) - 0.5) * height
        let (s, c) = (sin(rotation), cos(rotation))
        return SIMD2(centerX + c * x - s * y, centerY + s * x + c * y)
    }

    /// The map from a pixel of the `tensorSize × tensorSize` input to the stored pixel it samples, for
    /// ``Image/warpAffine(into:width:height:transform:valueRange:border:)`` (pixel centres at integers,
    /// as OpenCV). The orientation's rotation or mirroring is folded in, so a stored image is never turned
    /// first. MediaPipe's mesh input replicates the border.
    public func warpTransform(
        tensorSize: Int = Self.tensorSize, rawWidth: Int, rawHeight: Int, orientation: ImageOrientation = .up
    ) -> PixelTransform {
        let (uprightWidth, uprightHeight) = (Double(imageWidth), Double(imageHeight))
        func raw(_ u: Double, _ v: Double) -> (x: Double, y: Double) {
            let p = uprightPoint(tensorX: u, tensorY: v, tensorSize: tensorSize)
            let unit = orientation.rawUnitPoint(fromUpright: (p.x + 0.5) / uprightWidth, (p.y + 0.5) / uprightHeight)
            return (unit.x * Double(rawWidth) - 0.5, unit.y * Double(rawHeight) - 0.5)
        }
        let origin = raw(0, 0), xStep = raw(1, 0), yStep = raw(0, 1)
        return PixelTransform(
            a: xStep.x - origin.x, b: yStep.x - origin.x, c: xStep.y - origin.y, d: yStep.y - origin.y,
            tx: origin.x, ty: origin.y)
    }
}
