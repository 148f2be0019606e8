import VisageImage

/// Line art from an image: the contours of many contrast settings, merged.
///
/// One setting of pivot and adjustment catches the edges at one gray level; a sweep over both
/// ranges catches the edges at many, which reads as a drawing. The sweep runs
/// `steps × steps` settings (evenly spaced, ends included) on one working image; every contour
/// is simplified by `epsilon`, then near-copies are merged: a contour is dropped when an earlier
/// kept one (in sweep order) overlaps it with intersection over union at or above
/// `iouThreshold`, both of their bounding boxes and of the regions they enclose. Contours shorter
/// than `minimumLength` are dropped first: specks that read as noise, not lines.
///
/// The defaults (`epsilon` 0.002, `minimumLength` 0.02) keep the SVG of a typical photo's art to
/// about 100–300 KB (README.md, "Contours", gives measured sizes) without a change visible at screen
/// size; `epsilon: 0.001, minimumLength: 0` gives every point of every contour (1–2 MB).
///
/// ```swift
/// let art = ContourArt(pivotRange: 0.2 ... 0.7, adjustmentRange: 0.5 ... 3, iouThreshold: 0.9)
/// let strokes = try art.contours(for: image)
/// let svg = try ContourRenderer.svg(strokes, width: 800, height: 600)
/// ```
public struct ContourArt: Sendable, Hashable {
    public var pivotRange: ClosedRange<Float>
    public var adjustmentRange: ClosedRange<Float>
    /// Settings per range, at least 1 (a single setting at the lower bound) and at most 32.
    public var steps: Int
    /// Overlap at or above which two contours count as one, in (0, 1].
    public var iouThreshold: Double
    /// Simplification tolerance in normalized units (Ramer–Douglas–Peucker), ≥ 0.
    public var epsilon: Float
    /// Shortest contour kept: its perimeter as a fraction of the image's longer side, ≥ 0 (0 keeps all).
    public var minimumLength: Double
    public var detectsDarkOnLight: Bool
    public var maximumImageDimension: Int

    public init(
        pivotRange: ClosedRange<Float> = 0.2 ... 0.7, adjustmentRange: ClosedRange<Float> = 0.5 ... 3, steps: Int = 6,
        iouThreshold: Double = 0.9, epsilon: Float = 0.002, minimumLength: Double = 0.02, detectsDarkOnLight: Bool = true,
        maximumImageDimension: Int = 512
    ) {
        self.minimumLength = minimumLength
        self.pivotRange = pivotRange
        self.adjustmentRange = adjustmentRange
        self.steps = steps
        self.iouThreshold = iouThreshold
        self.epsilon = epsilon
        self.detectsDarkOnLight = detectsDarkOnLight
        self.maximumImageDimension = maximumImageDimension
    }

    /// The requests of the sweep, pivot-major.
    /// - Throws: ``ContoursError/invalidParameter(name:value:rule:)`` for a range outside the
    ///   request's limits, a bad step count, threshold or epsilon.
    public func requests() throws(ContoursError) -> [DetectContoursRequest] {
        guard (1 ... 32).contains(steps) else {
            throw .invalidParameter(name: "steps", value: "\(steps)", rule: "must be within 1...32")
        }
        guard iouThreshold > 0, iouThreshold <= 1 else {
            throw .invalidParameter(name: "iouThreshold", value: "\(iouThreshold)", rule: "must be greater than 0 and at most 1")
        }
        guard epsilon.isFinite, epsilon >= 0 else {
            throw .invalidParameter(name: "epsilon", value: "\(epsilon)", rule: "must be a finite number ≥ 0")
        }
        guard minimumLength.isFinite, minimumLength >= 0 else {
            throw .invalidParameter(name: "minimumLength", value: "\(minimumLength)", rule: "must be a finite number ≥ 0")
        }
        func values(_ range: ClosedRange<Float>) -> [Float] {
            let (low, high) = (Double(range.lowerBound), Double(range.upperBound))
            return steps == 1 ? [range.lowerBound]
                : (0 ..< steps).map { Float(low + (high - low) * Double($0) / Double(steps - 1)) }
        }
        // The range ends first, so an error names the bound the caller wrote.
        for pivot in [pivotRange.lowerBound, pivotRange.upperBound] {
            for adjustment in [adjustmentRange.lowerBound, adjustmentRange.upperBound] {
                var request = DetectContoursRequest()
                request.contrastPivot = pivot
                request.contrastAdjustment = adjustment
                request.maximumImageDimension = maximumImageDimension
                try request.validate()
            }
        }
        var requests: [DetectContoursRequest] = []
        for pivot in values(pivotRange) {
            for adjustment in values(adjustmentRange) {
                var request = DetectContoursRequest()
                request.contrastPivot = pivot
                request.contrastAdjustment = adjustment
                request.detectsDarkOnLight = detectsDarkOnLight
                request.maximumImageDimension = maximumImageDimension
                try request.validate()
                requests.append(request)
            }
        }
        return requests
    }

    /// The merged, simplified contours of the sweep, normalized to the upright image.
    public func contours(for image: Image) throws(ContoursError) -> [Contour] {
        let requests = try requests()
        let gray = try DetectContoursRequest.workingImage(image, orientation: nil, maximumDimension: maximumImageDimension)
        var all: [Contour] = []
        // Perimeters in units of the longer side, whatever the aspect.
        let side = Double(max(gray.width, gray.height))
        let scale = (x: Double(gray.width) / side, y: Double(gray.height) / side)
        for request in requests {
            let observation = DetectContoursRequest.observation(for: request.binarization(for: gray).mask(of: gray))
            for contour in observation.contours where minimumLength == 0 || Self.perimeter(contour, scale) >= minimumLength {
                all.append(try contour.polygonApproximation(epsilon: epsilon))
            }
        }
        return ContourDeduplication.unique(all, threshold: iouThreshold)
    }

    /// The closed outline's length, x and y scaled by `scale`.
    static func perimeter(_ contour: Contour, _ scale: (x: Double, y: Double)) -> Double {
        let points = contour.points
        guard var previous = points.last, points.count > 1 else { return 0 }
        var length = 0.0
        for point in points {
            let dx = (point.x - previous.x) * scale.x, dy = (point.y - previous.y) * scale.y
            length += (dx * dx + dy * dy).squareRoot()
            previous = point
        }
        return length
    }
}
