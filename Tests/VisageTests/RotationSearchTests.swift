import Foundation
import Testing
import Visage

/// Rotation search (``QuarterTurn``) and accurate mode's short-range pass.
@Suite(.serialized)
struct RotationSearchTests {
    /// A 3×2 picture whose pixels are all different, stored with `orientation`.
    static func tiny(_ orientation: ImageOrientation) throws -> Image {
        try Image(width: 3, height: 2, pixelFormat: .gray8, pixels: (0..<6).map { UInt8(10 * $0 + 10) }).withOrientation(orientation)
    }

    /// Each view's pixels are the upright picture's turned by its quarter turns, for every stored orientation.
    @Test(arguments: ImageOrientation.allCases)
    func viewsShowTheUprightPictureTurned(orientation: ImageOrientation) throws {
        let image = try Self.tiny(orientation)
        let upright = image.applyingOrientation()
        for turn in QuarterTurn.allCases {
            let view = image.withOrientation(turn.viewOrientation(of: orientation)).applyingOrientation()
            #expect(turn.rawValue % 2 == 0 ? view.width == upright.width : view.width == upright.height)
            for y in 0..<view.height {
                for x in 0..<view.width {
                    let u = turn.uprightPoint((Double(x) + 0.5) / Double(view.width), (Double(y) + 0.5) / Double(view.height))
                    let (ux, uy) = (Int(u.u * Double(upright.width)), Int(u.v * Double(upright.height)))
                    #expect(view.pixel(x: x, y: y) == upright.pixel(x: ux, y: uy), "\(orientation) \(turn) (\(x), \(y))")
                }
            }
        }
    }

    /// A detection maps to the upright picture's box and keypoints, and the eye line's angle turns with it.
    @Test func detectionsMapBackToTheUprightPicture() {
        let detection = Detection(
            xMin: 0.1, yMin: 0.2, width: 0.3, height: 0.4, keypoints: [SIMD2(0.2, 0.3), SIMD2(0.3, 0.3)], score: 0.9)
        let clockwise = QuarterTurn.clockwise.uprightDetection(detection)
        // View (a, b) shows upright (b, 1 − a).
        #expect(abs(clockwise.xMin - 0.2) < 1e-6 && abs(clockwise.yMin - 0.6) < 1e-6)
        #expect(abs(clockwise.width - 0.4) < 1e-6 && abs(clockwise.height - 0.3) < 1e-6)
        // The right eye (0.2, 0.3) is shown from upright (0.3, 0.8).
        #expect(abs(clockwise.keypoints[0].x - 0.3) < 1e-6 && abs(clockwise.keypoints[0].y - 0.8) < 1e-6)
        #expect(clockwise.score == detection.score)
        #expect(QuarterTurn.none.uprightDetection(detection) == detection)
        let half = QuarterTurn.half.uprightDetection(detection)
        #expect(abs(half.xMin - 0.6) < 1e-6 && abs(half.yMin - 0.4) < 1e-6)
    }

    /// The astronaut's photo turned a quarter clockwise, with no EXIF: fast mode alone finds it (or not,
    /// as MediaPipe); with rotation search the face is found where the turned photo has it, with a roll near 90°.
    @Test func rotationSearchFindsASidewaysFace() throws {
        let upright = try Image(contentsOf: LandmarkFixtures.url("astronaut.jpg")).converted(to: .rgb8)
        // The pixels of the upright picture turned clockwise, stored as they are (orientation up).
        let turned = upright.withOrientation(.right).applyingOrientation()
        let reference = try #require(try FaceDetector().process(upright).first)
        let found = try FaceDetector(options: .init(rotationSearch: true)).process(turned)
        try #require(found.count == 1)
        // Upright (x, y) lands at (h − y, x) in the turned picture: the box's corners follow.
        let h = Double(upright.height), r = reference.frame
        let expected = CGRect(x: h - r.maxY, y: r.minX, width: r.height, height: r.width)
        let f = found[0].frame
        let overlap = f.intersection(expected)
        let iou = overlap.width * overlap.height / (f.width * f.height + expected.width * expected.height - overlap.width * overlap.height)
        #expect(iou > 0.7, "\(f) vs \(expected)")
        // Counter-clockwise positive: a face turned clockwise by 90° reads about −90° more than upright.
        #expect(abs(found[0].headEulerAngleZ - (reference.headEulerAngleZ - 90)) < 10, "roll \(found[0].headEulerAngleZ)")
    }

    /// Accurate mode includes fast mode's pass: every face fast mode finds is among accurate mode's.
    @Test(arguments: ["two-faces.png", "one-face.jpg", "small-face.jpg"])
    func accurateModeFindsEveryFaceFastModeFinds(name: String) throws {
        let image = try Image(contentsOf: DetectorFixtures.url(name))
        let fast = try FaceDetector().process(image)
        let accurate = try FaceDetector(options: .init(performanceMode: .accurate, minFaceSize: 0)).process(image)
        for face in fast {
            let best = accurate.map { other -> Double in
                let i = face.frame.intersection(other.frame)
                guard !i.isNull else { return 0 }
                return i.width * i.height / (face.frame.width * face.frame.height + other.frame.width * other.frame.height - i.width * i.height)
            }.max() ?? 0
            #expect(best >= 0.5, "\(name): \(face.frame) best IoU \(best)")
        }
    }
}
