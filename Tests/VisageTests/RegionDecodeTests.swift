import Foundation
import Testing
import Visage
import VisageImage

/// The mesh stage's region decode (``RegionSource``): a JPEG's window decoded with libjpeg's row skipping
/// and column cropping against the whole picture's decode, pixel by pixel, then meshes against the
/// full-decode path.
@Suite(.serialized)
struct RegionDecodeTests {
    static func data(_ name: String) throws -> Data { try Data(contentsOf: DetectorFixtures.url(name)) }

    /// The largest channel difference between `window` and the same pixels of `full`, over the window's
    /// pixels at least `inset` from each side it was cut at (a side on the picture's edge is not a cut).
    static func difference(_ window: ImageWindow, _ full: Image, inset: Int) -> Int {
        let w = window.pixels, channels = w.pixelFormat.bytesPerPixel
        let left = window.x == 0 ? 0 : inset, top = window.y == 0 ? 0 : inset
        let right = window.x + w.width == full.width ? 0 : inset, bottom = window.y + w.height == full.height ? 0 : inset
        var worst = 0
        w.withUnsafeBytes { a in
            full.withUnsafeBytes { b in
                for y in top..<max(top, w.height - bottom) {
                    for x in left..<max(left, w.width - right) {
                        for c in 0..<channels {
                            let p = Int(a[y * w.bytesPerRow + x * channels + c])
                            let q = Int(b[(y + window.y) * full.bytesPerRow + (x + window.x) * channels + c])
                            worst = max(worst, abs(p - q))
                        }
                    }
                }
            }
        }
        return worst
    }

    @Test func windowPixelsEqualTheFullDecodeAwayFromTheCuts() throws {
        let data = try Self.data("small-face.jpg")   // 1280×960, 4:2:0
        let full = try Image(data: data, options: .init(applyOrientation: false))
        for (columns, rows) in [(37..<301, 53..<277), (0..<1280, 400..<401), (1201..<1280, 0..<17), (-50..<90, 900..<2000), (640..<641, 1..<959)] {
            let window = try ImageWindow(data: data, columns: columns, rows: rows)
            #expect(window.covers(columns: columns, rows: rows), "\(columns) × \(rows)")
            #expect((window.pictureWidth, window.pictureHeight) == (1280, 960))
            #expect(Self.difference(window, full, inset: RegionSource.edgeMargin) == 0, "\(columns) × \(rows)")
            print("window \(columns) × \(rows) → \(window.columns) × \(window.rows): worst at the cuts \(Self.difference(window, full, inset: 0)), one pixel in \(Self.difference(window, full, inset: 1)), two in \(Self.difference(window, full, inset: 2))")
        }
    }

    /// The worst distance in pixels between two meshes' points.
    static func worst(_ a: FaceMesh, _ b: FaceMesh) -> Double {
        (0..<FaceMesh.pointCount).map { index in
            let d = a.pixel(index) - b.pixel(index)
            return (d * d).sum().squareRoot()
        }.max() ?? .infinity
    }

    /// `one-face.jpg` at twice its size (1280×960), and the oriented fixture at twice its size with its
    /// EXIF orientation (upright 480×640).
    static func pictures() throws -> [(name: String, data: Data)] {
        func doubled(_ data: Data) throws -> Data {
            let stored = try Image(data: data, options: .init(applyOrientation: false))
            return try stored.resized(width: 2 * stored.width, height: 2 * stored.height, method: .bilinear).jpegData(quality: 95)
        }
        let original = try data("oriented-6.jpg")
        let larger = try doubled(original)
        let bytes = [UInt8](original)
        let app1 = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xE1 })
        let length = Int(bytes[app1 + 2]) << 8 | Int(bytes[app1 + 3])
        let oriented = larger.prefix(2) + Data(bytes[app1..<(app1 + 2 + length)]) + larger.dropFirst(2)
        return [("one-face.jpg ×2", try doubled(try data("one-face.jpg"))), ("oriented-6.jpg ×2", oriented)]
    }

    /// The same regions analysed from the whole picture and from windows decoded per face (one shared
    /// window for several faces): the same meshes and capture quality, while a window holds a part of the
    /// picture only.
    @Test func meshesFromWindowsMatchTheWholePicture() throws {
        let twoFaces = try Image(data: try Self.data("two-faces.png")).converted(to: .rgb8).jpegData(quality: 95)
        for (name, data) in try Self.pictures() + [("two-faces.png as JPEG", twoFaces)] {
            let full = try Image(data: data, options: .init(applyOrientation: false))
            let faces = try FaceDetector().detectedFaces(in: full)
            try #require(faces.count == (name.hasPrefix("two") ? 2 : 1), "\(name)")
            let regions = try FaceLandmarkPipeline.regions(for: faces)
            let source = RegionSource(encoded: data, info: try ImageFileInfo.read(data: data))
            let window = try source.window(coveringAll: regions.compactMap { $0 })
            if faces.count == 1 {
                #expect(window.pixels.width * window.pixels.height < full.width * full.height / 2, "\(name): window \(window.columns) × \(window.rows)")
            }
            let whole = try FaceLandmarkPipeline.analyze(RegionSource(full), regions: regions, captureQuality: true)
            let windowed = try FaceLandmarkPipeline.analyze(source, regions: regions, captureQuality: true)
            for (wholeFace, windowedFace) in zip(whole, windowed) {
                let a = try #require(wholeFace.analysis), b = try #require(windowedFace.analysis)
                let worst = Self.worst(a.mesh, b.mesh)
                print("\(name): window \(window.columns) × \(window.rows) of \(full.width)×\(full.height); mesh worst \(worst) px, quality \(wholeFace.captureQuality ?? -1) vs \(windowedFace.captureQuality ?? -1)")
                #expect(worst <= 0.5, "\(name): \(worst) px")
                #expect(abs((wholeFace.captureQuality ?? 0) - (windowedFace.captureQuality ?? 1)) < 0.01)
            }
        }
    }

    /// The opt-in path (`analyzedFaces(decoding:meshFromReducedDecode: true)`, `visage detect --shrink-on-load`):
    /// fast detection on a reduced decode, the mesh on windows at full resolution, against detection and
    /// mesh on the full decode, which is what the default path gives (checked here too).
    ///
    /// The windows add nothing (above: 0.0 px), and where the detector needs the picture at 1/4 or 1/8 its
    /// input is the full decode's bit for bit (``JPEGSparseDecoder``), so boxes and meshes are the full
    /// decode's exactly (`one-face.jpg ×2`; with detection on libjpeg's 1/4 decode, before, the mesh followed
    /// the box's small move: median 0.60 px). `oriented-6.jpg ×2` (640×480) is still detected on libjpeg's
    /// 1/2 decode: its mesh, on a small, soft face, moves by a median 3.6 px, worst 16.6 px (presence 0.94 on
    /// the full decode). So that one is held to the boxes' 1 % of the picture, point by point at the median.
    @Test func reducedDetectionAndWindowedMeshMatchTheFullDecode() throws {
        let detector = FaceDetector(options: .init(performanceMode: .fast))
        for (name, data) in try Self.pictures() {
            let full = try Image(data: data, options: .init(applyOrientation: false))
            let reference = try detector.analyzedFaces(in: full, mesh: true)
            let decoded = try detector.analyzedFaces(decoding: data, features: [.mesh], meshFromReducedDecode: true)
            let byDefault = try detector.analyzedFaces(decoding: data, features: [.mesh])
            #expect(byDefault.faces.map(\.face.frame) == reference.map(\.face.frame), "\(name)")
            #expect(byDefault.faces.map { $0.analysis?.mesh } == reference.map { $0.analysis?.mesh }, "\(name)")
            try #require(reference.count == 1 && decoded.faces.count == 1, "\(name)")
            let size = full.orientation.uprightSize(rawWidth: full.width, rawHeight: full.height)
            #expect((decoded.width, decoded.height) == (size.width, size.height))
            // Shrunk to 1/4 or 1/8 (1280×960 here; the oriented 640×480 is shrunk to 1/2, by libjpeg).
            if JPEGCodec.halvingScaleNumerator(width: full.width, height: full.height, atLeast: FaceDetector.shrinkOnLoadMinimum) <= 2 {
                #expect(decoded.faces.map(\.face.frame) == reference.map(\.face.frame), "\(name)")
                #expect(decoded.faces.map { $0.analysis?.mesh } == reference.map { $0.analysis?.mesh }, "\(name)")
                #expect(decoded.faces.map(\.captureQuality) == reference.map(\.captureQuality), "\(name)")
            }
            let a = reference[0].face.frame, b = decoded.faces[0].face.frame
            let (dx, dy) = (0.01 * Double(size.width), 0.01 * Double(size.height))
            #expect(abs(a.minX - b.minX) <= dx && abs(a.maxX - b.maxX) <= dx && abs(a.minY - b.minY) <= dy && abs(a.maxY - b.maxY) <= dy)
            let ma = try #require(reference[0].analysis).mesh, mb = try #require(decoded.faces[0].analysis).mesh
            let distances = (0..<FaceMesh.pointCount).map { index -> Double in
                let d = ma.pixel(index) - mb.pixel(index)
                return (d * d).sum().squareRoot()
            }.sorted()
            let median = distances[distances.count / 2]
            print("\(name): reduced detection + windows vs full decode: mesh median \(median) px, worst \(distances.last!) px")
            #expect(median <= 0.01 * Double(min(size.width, size.height)), "\(name): median \(median) px")
        }
    }
}
