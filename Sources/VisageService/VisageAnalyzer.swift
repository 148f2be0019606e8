import Foundation
import Visage

/// The real analysis: Visage's decoders and pipeline, the same calls `visage detect`, `contours` and `track` make.
public struct VisageAnalyzer: FaceAnalyzing {
    public init() {}

    public func warmUp() throws {
        // Loads every model the routes use (checksums, graph planning), then one detection in each mode
        // runs the interpreters once, so the first request pays for nothing.
        _ = try FaceMeshRunner.shared()
        let gray = try Image(width: 64, height: 64, pixelFormat: .rgb8, pixels: [UInt8](repeating: 128, count: 64 * 64 * 3))
        for mode in [FaceDetectorOptions.PerformanceMode.fast, .accurate] {
            _ = try FaceDetector(options: .init(performanceMode: mode)).analyzedFaces(in: gray)
        }
    }

    /// Decodes as the CLI does: the stored pixels with their EXIF orientation, which the pipeline folds in.
    private func decode(_ data: Data, limits: DecodeLimits, applyOrientation: Bool) throws -> Image {
        try Image(data: data, options: .init(applyOrientation: applyOrientation, pixelLimit: limits.maxPixels))
    }

    /// JPEGs up to this many bytes in fast mode without the mesh stage are brief (``isBrief(faces:data:)``).
    static let briefBytes = 512 << 10

    /// A sequential JPEG's fast detection decodes only the scale the detector needs, so its time follows
    /// its bytes (entropy decoding) rather than its pixels: a 640×480 one (68 KB) takes about 4 ms in all,
    /// and one at the limit stays within tens of milliseconds. A progressive JPEG is not brief: libjpeg
    /// buffers and decodes every coefficient of every scan, so a flat 48-megapixel one of 282 KB took
    /// 0.32 s (release build, session 21). Other formats decode every pixel, and a small PNG can hold the
    /// whole pixel limit, so they are not brief either. The header is read only when the rest qualifies.
    public func isBrief(faces options: FaceOptions, data: Data) -> Bool {
        guard options.mode == .fast, !options.features.needsMesh, data.count <= Self.briefBytes,
              data.starts(with: [0xFF, 0xD8, 0xFF]), let info = try? ImageFileInfo.read(data: data) else { return false }
        return info.format == .jpeg && !info.isProgressive
    }

    public func faces(in data: Data, name: String, options: FaceOptions, limits: DecodeLimits, checkpoint: inout Checkpoint) throws -> FacesRecord {
        // Fast detection with no mesh stage goes exactly as `visage detect` goes, through the same call
        // (FaceDetector.analyzedFaces(decoding:...)): a JPEG is decoded only as large as the detector needs
        // (for a photo shrunk to 1/4 or 1/8, only the pixels the detector's warp reads, so its input is the
        // full decode's) and the faces are reported in the full picture. Anything else decodes the whole image and times the mesh stage apart.
        if options.mode == .fast, !options.features.needsMesh {
            let (faces, width, height) = try options.detector.analyzedFaces(
                decoding: data, features: options.features, maxFaces: options.maxFaces, pixelLimit: limits.maxPixels,
                decoded: { try checkpoint.stage("decode") })
            try checkpoint.stage("detect")
            let size = CGSize(width: width, height: height)
            return FacesRecord(
                image: name, width: width, height: height, faces: faces.map { FaceRecord($0, features: options.features, imageSize: size) })
        }
        let image = try decode(data, limits: limits, applyOrientation: false)
        try checkpoint.stage("decode")
        let faces = try analyze(image, options: options, checkpoint: &checkpoint)
        let size = image.size
        return FacesRecord(
            image: name, width: Int(size.width), height: Int(size.height),
            faces: faces.map { FaceRecord($0, features: options.features, imageSize: size) })
    }

    private func analyze(_ image: Image, options: FaceOptions, checkpoint: inout Checkpoint) throws -> [FaceDetector.AnalyzedFace] {
        let detector = options.detector
        let features = options.features
        let detected = try detector.detectedFaces(in: image, maxFaces: options.maxFaces)
        try checkpoint.stage("detect")
        let faces = try detector.analyzed(detected, in: image, mesh: features.needsMesh, captureQuality: features.contains(.quality))
        if features.needsMesh { try checkpoint.stage("mesh") }
        return faces
    }

    public func contours(
        in data: Data, name: String, options: ContourOptions, format: ContourOutput, limits: DecodeLimits, checkpoint: inout Checkpoint
    ) throws -> Rendered {
        let image = try decode(data, limits: limits, applyOrientation: true)
        try checkpoint.stage("decode")
        var contours: [Contour]
        var topLevel: Int?
        if let art = options.art {
            contours = try art.contours(for: image)
            try checkpoint.stage("contour art")
        } else {
            let observation = try options.request.performSynchronously(on: image)
            contours = observation.contours
            topLevel = observation.topLevelContourCount
            try checkpoint.stage("contours")
            if let epsilon = options.epsilon {
                contours = try contours.map { try $0.polygonApproximation(epsilon: epsilon) }
                try checkpoint.stage("simplify")
            }
        }
        let (width, height) = (Int(image.size.width), Int(image.size.height))
        let rendered: Rendered
        switch format {
        case .json:
            rendered = Rendered(
                data: try SortedJSON.encode(ContoursRecord(image: name, contours: contours, topLevel: topLevel)),
                contentType: "application/json")
        case .svg:
            let svg = try ContourRenderer.svg(contours, width: width, height: height, background: options.overlay ? image : nil)
            rendered = Rendered(data: Data(svg.utf8), contentType: "image/svg+xml")
        case .png:
            let png = options.overlay
                ? try ContourRenderer.png(contours, over: image) : try ContourRenderer.png(contours, width: width, height: height)
            rendered = Rendered(data: png, contentType: "image/png")
        }
        try checkpoint.stage("render")
        return rendered
    }

    public func annotate(
        _ data: Data, options: FaceOptions, format: AnnotationOutput, limits: DecodeLimits, checkpoint: inout Checkpoint
    ) throws -> Rendered {
        let image = try decode(data, limits: limits, applyOrientation: false)
        try checkpoint.stage("decode")
        let faces = try analyze(image, options: options, checkpoint: &checkpoint)
        let shapes = faces.flatMap { FaceAnnotation.shapes($0, features: options.features, imageSize: image.size) }
        let rendered: Rendered = switch format {
        case .svg: Rendered(data: Data(try FaceAnnotation.svg(faces.map(\.face), shapes: shapes, on: image).utf8), contentType: "image/svg+xml")
        case .png: Rendered(data: try FaceAnnotation.drawn(faces.map(\.face), shapes: shapes, on: image).pngData(), contentType: "image/png")
        }
        try checkpoint.stage("render")
        return rendered
    }

    public func makeTracker(_ options: TrackOptions) throws -> any FrameTracking {
        try Tracker(FaceTracker(options: .init(
            handler: .init(maximumFaces: options.maxFaces), debounce: options.debounce, mirrored: options.mirrored,
            attention: options.attention.options)))
    }

    /// `FaceTracker` for one connection, used by one task at a time.
    final class Tracker: FrameTracking {
        let tracker: FaceTracker
        init(_ tracker: FaceTracker) { self.tracker = tracker }

        func track(_ data: Data, index: Int, time: Double, limits: DecodeLimits, checkpoint: inout Checkpoint) throws -> TrackingFrameRecord {
            let image = try Image(data: data, options: .init(pixelLimit: limits.maxPixels))
            try checkpoint.stage("decode")
            let update = try tracker.process(VideoFrame(image: image, index: index, time: time))
            try checkpoint.stage("track")
            return TrackingFrameRecord(update, includeEvents: true)
        }
    }
}
